/**
 * @module cli/verify-calls
 * The calls `v2bridge verify` compares (src/cli/verify.ts): the lines of a file of v2 URLs, the
 * served reads of the key's migration report, or a sweep of the first applications.
 */

import { bodyJson, keyFetch, KeyRefused, type KeyFetchOptions } from './key-transport'

export class Unreachable extends Error {
  override name = 'Unreachable'
}

/** The lines of a file of v2 URLs as paths under `/v2`. */
export function fromFile(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .filter(Boolean)
    .map((l) => {
      const url = new URL(l, 'http://x')
      const path = url.pathname.startsWith('/v2/') ? url.pathname : `/v2${url.pathname}`
      return path + url.search
    })
}

type Json = (path: string) => Promise<Record<string, unknown>>
const list = (body: Record<string, unknown>, key: string) =>
  (Array.isArray(body[key]) ? body[key] : []) as Record<string, unknown>[]

/** The applications sweep: list, then for the first `n` show, hosts, instances, metric names and
 * metric data (summarized and as timeslices) of names the app reports. */
export async function sweep(json: Json, n: number): Promise<string[]> {
  const paths = ['/v2/applications.json']
  const apps = list(await json(paths[0]!), 'applications').slice(0, n)
  for (const app of apps) {
    const base = `/v2/applications/${app['id']}`
    paths.push(
      `${base}.json`,
      `${base}/hosts.json`,
      `${base}/instances.json`,
      `${base}/metrics.json`
    )
    const names = list(await json(`${base}/metrics.json`), 'metrics')
      .map((m) => String(m['name']))
      .slice(0, 3)
    const q = names.map((name) => `names[]=${encodeURIComponent(name)}`).join('&')
    if (q)
      paths.push(`${base}/metrics/data.json?${q}&summarize=true`, `${base}/metrics/data.json?${q}`)
  }
  return paths
}

interface ReportJson {
  report?: {
    operations?: {
      method: string
      path: string
      answer: string
      metric_names: string[]
      value_types: string[]
    }[]
  }
}

/** The served reads of the key's report, with IDs from the first application (and its first host
 * and instance) where the template has them; operations whose IDs are not known are left out. */
export async function fromReport(
  url: string,
  key: string,
  transport: Omit<KeyFetchOptions, 'what'>,
  json: Json
) {
  let report: ReportJson
  if (!/^https?:\/\//i.test(url)) {
    try {
      report = JSON.parse(url) as ReportJson
    } catch {
      throw new Unreachable('the report is not JSON (a report.json of v2bridge)')
    }
  } else {
    // The key goes to a v2bridge only over TLS, or to one on this machine.
    try {
      const res = await keyFetch(
        url,
        { headers: { 'X-Api-Key': key } },
        { ...transport, what: 'the report at' }
      )
      if (!res.ok) throw new Error(`HTTP ${res.status}`)
      const body = await bodyJson(res)
      if (body === undefined) throw new Error('not JSON')
      report = body as ReportJson
    } catch (err) {
      if (err instanceof KeyRefused) throw err
      throw new Unreachable(`the report at ${url} could not be read (${(err as Error).message})`)
    }
  }
  if (!Array.isArray((report as ReportJson | null)?.report?.operations))
    throw new Unreachable('the report has no operations: is it a report.json of v2bridge?')
  const app = list(await json('/v2/applications.json'), 'applications')[0]
  const ids: Record<string, unknown> = { id: app?.['id'], application_id: app?.['id'] }
  if (app) {
    ids['host_id'] = list(
      await json(`/v2/applications/${app['id']}/hosts.json`),
      'application_hosts'
    )[0]?.['id']
    ids['instance_id'] = list(
      await json(`/v2/applications/${app['id']}/instances.json`),
      'application_instances'
    )[0]?.['id']
  }
  const paths = new Set<string>()
  for (const op of report.report?.operations ?? []) {
    if (op.method !== 'GET' || op.answer !== 'served') continue
    if (op.path.includes('/hosts/{id}')) ids['id'] = ids['host_id']
    let missing = false
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const id = ids[name]
      if (id === undefined) missing = true
      return String(id)
    })
    ids['id'] = app?.['id']
    if (missing) continue
    const q = [
      ...op.metric_names.map((n) => `names[]=${encodeURIComponent(n)}`),
      ...op.value_types.map((v) => `values[]=${encodeURIComponent(v)}`),
    ].join('&')
    paths.add(`${path}.json${q ? `?${q}` : ''}`)
  }
  return [...paths]
}
