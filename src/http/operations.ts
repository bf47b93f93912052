/**
 * @module http/operations
 * Routing by the table of every v2 operation (mappings/operations.ts): which row a request is, which
 * methods a path serves (404 when none, 405 with `Allow` otherwise, RFC 9110 §15.5.6), and the answer
 * of rows v2bridge does not translate (410 for retired, 501 for unsupported or forwarding turned off).
 */
import { TrieRouter } from 'hono/router/trie-router'
import { operations, readsByPost, type OperationRow } from '../../mappings/operations'
import { V2Error } from '../core/errors'

/** `{application_id}` → `:application_id`, the router's spelling. */
export function routePattern(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1')
}

export interface Matched {
  /** The row for this method, when the path serves it. */
  row: OperationRow | undefined
  /** Every method the path serves (HEAD wherever GET), sorted; [] for an unknown path. */
  allowed: string[]
  /** The path template of a known path (`/v2/applications/{id}`), whatever the method. */
  path?: string
}

export type OperationRouter = (method: string, path: string) => Matched

/** Builds the matcher once; `rows` is a parameter so tests can pass a small table. */
export function operationRouter(rows: readonly OperationRow[] = operations): OperationRouter {
  const router = new TrieRouter<[string, OperationRow]>()
  const creates = new Set(rows.filter((r) => r.method === 'POST').map((r) => r.path))
  for (const row of rows) {
    router.add('ALL', routePattern(row.path), [row.method, row])
    if (readsByPost(row, creates)) router.add('ALL', routePattern(row.path), ['POST', row])
  }
  const match = (method: string, path: string): Matched => {
    const hits = router.match('ALL', path)[0].map(([[m, row]]) => [m, row] as const)
    const methods = new Set(hits.map(([m]) => m))
    if (methods.has('GET')) methods.add('HEAD')
    const wanted = method === 'HEAD' ? 'GET' : method
    const row = hits.find(([m]) => m === wanted)?.[1]
    const template = hits[0]?.[1].path
    return Object.freeze({
      row,
      allowed: Object.freeze([...methods].sort()) as string[],
      ...(template ? { path: template } : {}),
    })
  }
  // The same paths come again and again (an exporter reads the same applications every minute):
  // the last `remembered` matches of known paths are kept, the oldest dropped first. Routing runs
  // before the key is checked, so what anyone may send is bounded: an unknown or long path is
  // matched anew every time. Frozen: shared by requests.
  const known = new Map<string, Matched>()
  return (method, path) => {
    const key = `${method} ${path}`
    let matched = known.get(key)
    if (matched) return matched
    matched = match(method, path)
    if (matched.allowed.length === 0 || path.length > rememberedLength) return matched
    if (known.size >= remembered) known.delete(known.keys().next().value!)
    known.set(key, matched)
    return matched
  }
}

/** Matches kept, of paths up to `rememberedLength` characters: at most about 300 KB, whatever paths
 * callers send. */
const remembered = 1024
const rememberedLength = 256

/** The error a row that v2bridge does not translate answers with, or undefined for a served row. */
export function untranslatedAnswer(row: OperationRow, forwarding: boolean): V2Error | undefined {
  if (row.answer === 'retired') return new V2Error(410, row.title ?? `${row.summary} is retired`)
  if (row.answer === 'unsupported')
    return new V2Error(501, `${row.method} ${row.path} is not supported by v2bridge`)
  if (row.answer === 'forwarded' && !forwarding)
    return new V2Error(
      501,
      `${row.method} ${row.path} is answered by New Relic's REST API v2, and forwarding is off in this v2bridge`
    )
  return undefined
}
