/**
 * @module cli/verify
 * `v2bridge verify`: the one-shot check before switching (issue 24). Each call goes to the real v2
 * (`--v2-url`, or the region's) with the key and to v2bridge in this process (its NerdGraph at
 * `--nerdgraph-url`, or the region's), and the two answers are compared by the rules of
 * src/compare/ (noise learned by asking v2 twice). The calls: a file of v2 URLs (`--urls`), the
 * operations of the key's own migration report (`--from-report`), or a sweep of the first
 * applications (list; then show, hosts, instances, metric names and metric data of each). Prints one
 * table per operation (or JSON); exit 0 when nothing differs beyond noise, 1 otherwise, 2 when v2,
 * NerdGraph or the report cannot be reached. The key goes to v2 and NerdGraph only.
 */
import { createApp } from '../app'
import { parseConfig, v2Urls, type Region } from '../core/config'
import { Comparer, addOutcome, type Verification } from '../compare'
import { operationRouter } from '../http/operations'
import { pathWithoutFormat } from '../http/render'
import { verificationBody } from '../report/view'
import { fromFile, fromReport, sweep, Unreachable } from './verify-calls'

export { Unreachable }

export interface VerifyOptions {
  key: string
  region: Region
  nerdgraphUrl: string
  v2Url?: string
  /** v2 URLs or paths (`/v2/applications.json`), one a line; `#` starts a comment. */
  urls?: string
  /** The URL of a v2bridge migration report (`…/v2bridge/report.json`) of this key, which is asked
   * with the key (https, or http on loopback only); or the report's JSON, as downloaded. */
  fromReport?: string
  /** Applications of the default sweep. */
  apps?: number
  /** Paths whose differences are known and accepted (README "Where v2bridge differs"): not counted. */
  allow?: readonly string[]
  fetch?: typeof fetch
}

const bounds = { entriesPerKey: 1000, namesPerEntry: 1000, nameLength: 255 }

export interface VerifyResult {
  ok: boolean
  calls: number
  operations: Verification[]
}

export async function verify(o: VerifyOptions): Promise<VerifyResult> {
  const fetchImpl = o.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const v2Url = (o.v2Url ?? v2Urls[o.region]).replace(/\/+$/, '')
  const app = createApp({
    config: parseConfig({ NERDGRAPH_URL: o.nerdgraphUrl, V2_URL: v2Url, ALLOW_HTTP: 'true' }),
    ...(o.fetch ? { fetch: o.fetch } : {}),
  })
  const headers = { 'X-Api-Key': o.key, 'User-Agent': 'v2bridge-verify' }
  const v2 = async (path: string) => {
    try {
      return await fetchImpl(`${v2Url}${path.replace(/^\/v2(?=\/)/, '')}`, { headers })
    } catch (err) {
      throw new Unreachable(`v2 at ${v2Url} could not be reached (${(err as Error).message})`)
    }
  }
  const bridge = async (path: string) => {
    const res = await app.request(path, { headers })
    if (res.status === 502 || res.status === 504)
      throw new Unreachable(`NerdGraph at ${o.nerdgraphUrl} could not be reached (${res.status})`)
    return res
  }
  const json = async (path: string) => {
    const res = await v2(path)
    if (res.status === 401 || res.status === 403)
      throw new Unreachable(`v2 refused the key (${res.status})`)
    return res.ok ? ((await res.json().catch(() => ({}))) as Record<string, unknown>) : {}
  }

  const paths = o.urls
    ? fromFile(o.urls)
    : o.fromReport
      ? await fromReport(o.fromReport, o.key, fetchImpl, json)
      : await sweep(json, o.apps ?? 3)
  const route = operationRouter()
  const comparer = new Comparer()
  const found = new Map<string, Verification>()
  for (const path of paths) {
    const { row } = route('GET', pathWithoutFormat(new URL(path, 'http://x').pathname))
    if (!row || row.answer !== 'served') continue
    const op = { method: row.method, path: row.path }
    const theirs = await v2(path) // in turn: unreachable stops the run before anything is compared
    const outcome = await comparer.compare(op, Promise.resolve(theirs), bridge(path), () =>
      v2(path)
    )
    if (outcome.result === 'error') await bridge(path) // an unreachable NerdGraph says so
    const differences = outcome.differences.filter((d) => !o.allow?.includes(d.path))
    const result = outcome.result === 'differing' && !differences.length ? 'equal' : outcome.result
    addOutcome(found, { ...outcome, result, differences }, bounds)
  }
  const operations = [...found.values()]
  return {
    ok: operations.every((v) => v.differing === 0 && v.errors === 0),
    calls: paths.length,
    operations,
  }
}

/** The table: per operation its counts, then each differing path with its examples. */
export function verifyLines(result: VerifyResult): string[] {
  const lines: string[] = []
  for (const v of verificationBody(result.operations)) {
    lines.push(`${v.method} ${v.path}`)
    lines.push(
      `  compared ${v.compared}  equal ${v.equal}  differing ${v.differing}  errors ${v.errors}`
    )
    for (const d of v.differences) {
      const largest = d.largest === null ? '' : `  largest ${(d.largest * 100).toPrecision(2)}%`
      lines.push(`  differs  ${d.path}  in ${d.count} (${d.kinds.join(', ')})${largest}`)
      for (const e of d.examples) lines.push(`           ${e}`)
    }
    for (const n of v.noisy) lines.push(`  noise    ${n.path}  band ±${n.abs}`)
  }
  lines.push(
    result.ok
      ? `${result.calls} calls: no difference beyond noise`
      : `${result.calls} calls: differences beyond noise (above)`
  )
  return lines
}
