/**
 * @module cli/verify
 * `v2bridge verify`: the one-shot check before switching (issue 24). Each call goes to the real v2
 * (`--v2-url`, or the region's) with the key and to v2bridge in this process (its NerdGraph at
 * `--nerdgraph-url`, or the region's), and the two answers are compared by the rules of
 * src/compare/ (noise learned from three or more v2 reads), or with `--bridge URL` to that deployed
 * v2bridge instead. The calls: a file of v2 URLs (`--urls`), the
 * operations of the key's own migration report (`--from-report`), or a sweep of the first
 * applications (list; then show, hosts, instances, metric names and metric data of each). Prints one
 * table per operation (or JSON); exit 0 when nothing differs beyond noise and the documented
 * differences, 1 otherwise, 2 when v2, NerdGraph, the bridge or the report cannot be reached, the
 * run passes its deadline or no call was compared. The key goes over TLS or to this machine only,
 * never through a redirect to another host (key-transport.ts).
 */
import { createApp } from '../app'
import { parseConfig, v2Urls, type Region } from '../core/config'
import { Comparer, addOutcome, type Verification } from '../compare'
import { operationRouter } from '../http/operations'
import { pathWithoutFormat } from '../http/render'
import { verificationBody } from '../report/view'
import { whyOf } from './doctor'
import { bodyText, checkKeyTarget, keyFetch, keyFetchOf, KeyRefused } from './key-transport'
import { fromFile, fromReport, sweep, Unreachable } from './verify-calls'

export { Unreachable }

export interface VerifyOptions {
  key: string
  region: Region
  nerdgraphUrl: string
  v2Url?: string
  /** A deployed v2bridge (`https://v2bridge.example.com`): each call goes to it instead of the
   * v2bridge of this process. */
  bridge?: string
  /** v2 URLs or paths (`/v2/applications.json`), one a line; `#` starts a comment. */
  urls?: string
  /** The URL of a v2bridge migration report (`…/v2bridge/report.json`) of this key, which is asked
   * with the key (https, or http on loopback only); or the report's JSON, as downloaded. */
  fromReport?: string
  /** Applications of the default sweep. */
  apps?: number
  /** Paths whose differences are known and accepted: not counted. */
  allow?: readonly string[]
  /** Milliseconds for one call, its answer included (30 s), and for the whole run (10 min). */
  timeoutMs?: number
  deadlineMs?: number
  fetch?: typeof fetch
}

const bounds = { entriesPerKey: 1000, namesPerEntry: 1000, nameLength: 255 }

export interface VerifyResult {
  ok: boolean
  calls: number
  operations: Verification[]
}

export async function verify(o: VerifyOptions): Promise<VerifyResult> {
  const v2Url = (o.v2Url ?? v2Urls[o.region]).replace(/\/+$/, '')
  const bridgeUrl = o.bridge?.replace(/\/+$/, '').replace(/\/v2$/, '')
  checkKeyTarget(v2Url, 'v2 at')
  if (bridgeUrl) checkKeyTarget(bridgeUrl, 'v2bridge at')
  else checkKeyTarget(o.nerdgraphUrl, 'NerdGraph at')
  const run = new AbortController()
  const deadlineMs = o.deadlineMs ?? 600_000
  const timer = setTimeout(() => run.abort(), deadlineMs)
  const transport = {
    timeoutMs: o.timeoutMs ?? 30_000,
    signal: run.signal,
    ...(o.fetch ? { fetch: o.fetch } : {}),
  }
  const late = () =>
    new Unreachable(
      `verify ran past its deadline (${deadlineMs / 1000} s) before every call was compared`
    )
  const headers = { 'X-Api-Key': o.key, 'User-Agent': 'v2bridge-verify' }
  /** A whole answer of `url` (its body read within the call's time), or Unreachable. */
  const read = async (url: string, what: string) => {
    try {
      const res = await keyFetch(url, { headers }, { ...transport, what })
      const text = res.status === 204 || res.status === 304 ? null : await bodyText(res)
      return new Response(text, { status: res.status, headers: res.headers })
    } catch (err) {
      if (err instanceof KeyRefused) throw err
      if (run.signal.aborted) throw late()
      throw new Unreachable(`${what} ${url.replace(/\?.*/, '')} could not be read (${whyOf(err)})`)
    }
  }
  const v2 = (path: string) => read(`${v2Url}${path.replace(/^\/v2(?=\/)/, '')}`, 'v2 at')
  const app = bridgeUrl
    ? undefined
    : createApp({
        config: parseConfig({ NERDGRAPH_URL: o.nerdgraphUrl, V2_URL: v2Url, ALLOW_HTTP: 'true' }),
        fetch: keyFetchOf(transport, 'NerdGraph at'),
      })
  const bridge = async (path: string) => {
    const res = app
      ? await app.request(path, { headers })
      : await read(bridgeUrl + path, 'v2bridge at')
    if (run.signal.aborted) throw late()
    if (res.status === 502 || res.status === 504)
      throw new Unreachable(
        app
          ? `NerdGraph at ${o.nerdgraphUrl} could not be reached (${res.status})`
          : `v2bridge at ${bridgeUrl} answered ${res.status}: its upstream could not be reached`
      )
    return res
  }
  const json = async (path: string) => {
    const res = await v2(path)
    if (res.status === 401 || res.status === 403)
      throw new Unreachable(`v2 refused the key (${res.status})`)
    return res.ok ? ((await res.json().catch(() => ({}))) as Record<string, unknown>) : {}
  }

  try {
    const paths = o.urls
      ? fromFile(o.urls)
      : o.fromReport
        ? await fromReport(o.fromReport, o.key, transport, json)
        : await sweep(json, o.apps ?? 3)
    const route = operationRouter()
    const comparer = new Comparer()
    const found = new Map<string, Verification>()
    let compared = 0
    for (const path of paths) {
      const { row } = route('GET', pathWithoutFormat(new URL(path, 'http://x').pathname))
      if (!row || row.answer !== 'served') continue
      const op = { method: row.method, path: row.path }
      const theirs = await v2(path) // in turn: unreachable stops the run before anything is compared
      const outcome = await comparer.compare(op, Promise.resolve(theirs), bridge(path), () =>
        v2(path)
      )
      if (run.signal.aborted) throw late()
      const differences = outcome.differences.filter((d) => !o.allow?.includes(d.path))
      const result =
        outcome.result === 'differing' && !differences.length ? 'equal' : outcome.result
      if (result !== 'skipped') compared += 1
      addOutcome(found, { ...outcome, result, differences }, bounds)
    }
    if (!compared) throw new Unreachable(nothingCompared(paths.length, o))
    const operations = [...found.values()]
    return {
      ok: operations.every((v) => v.differing === 0 && v.errors === 0),
      calls: paths.length,
      operations,
    }
  } finally {
    clearTimeout(timer)
  }
}

/** Why no call was compared: exit 2 with the reason, never "no difference" over nothing. */
function nothingCompared(calls: number, o: VerifyOptions): string {
  const source = o.urls ? 'the --urls file' : o.fromReport ? 'the report' : 'the sweep'
  return calls
    ? `no call was compared: none of the ${calls} calls of ${source} is a v2 read v2bridge serves, or v2 refused them all`
    : `no call was compared: ${source} has no v2 read v2bridge serves`
}

/** The table: per operation its counts, then each differing path with its examples. */
export function verifyLines(result: VerifyResult): string[] {
  const lines: string[] = []
  for (const v of verificationBody(result.operations)) {
    lines.push(`${v.method} ${v.path}`)
    lines.push(
      `  compared ${v.compared}  equal ${v.equal}  differing ${v.differing}  documented ${v.documented}  errors ${v.errors}`
    )
    for (const d of v.differences) {
      const largest = d.largest === null ? '' : `  largest ${(d.largest * 100).toPrecision(2)}%`
      lines.push(`  differs  ${d.path}  in ${d.count} (${d.kinds.join(', ')})${largest}`)
      for (const e of d.examples) lines.push(`           ${e}`)
    }
    for (const d of v.documented_differences)
      lines.push(`  documented  ${d.path}  in ${d.count} (docs/differences.md: ${d.row})`)
    for (const n of v.noisy) lines.push(`  noise    ${n.path}  band ±${n.abs}`)
  }
  lines.push(
    result.ok
      ? `${result.calls} calls: no difference beyond noise`
      : `${result.calls} calls: differences beyond noise (above)`
  )
  return lines
}
