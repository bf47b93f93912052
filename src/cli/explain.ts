/**
 * @module cli/explain
 * `v2bridge explain '<v2 URL>'`: the explain answer of a URL (src/explain), computed in-process.
 * Offline unless an ID lookup is needed: with `--account` (or for operations without one) nothing
 * goes upstream; otherwise the lookup needs `--key`.
 */
import { createApp } from '../app'
import { parseConfig } from '../core/config'
import { staticFiles } from '../explorer/static-content'

export interface ExplainOptions {
  url: string
  method?: string
  key?: string
  account?: number
  region?: string
  endpoint?: string
  fetch?: typeof fetch
}

export type ExplainResult =
  { kind: 'answer'; status: number; text: string } | { kind: 'needs-lookup' }

/** Stands in for a key when none is given; it never leaves the process. */
const offlineKey = 'NRAK-V2BRIDGE-OFFLINE'

export async function explainUrl(o: ExplainOptions): Promise<ExplainResult> {
  let blocked = false
  const offline: typeof fetch = async () => {
    blocked = true
    throw new Error('offline')
  }
  const app = createApp({
    config: parseConfig({ REGION: o.region, NERDGRAPH_URL: o.endpoint, ALLOW_HTTP: 'true' }),
    fetch: o.key ? (o.fetch ?? fetch) : offline,
    log: () => {},
    files: staticFiles,
    // Offline, no key exists to prove; with a key, explain proves it as the server does.
    explainTrustsKey: !o.key,
  })
  const target = new URL(o.url, 'https://api.newrelic.com')
  const headers: Record<string, string> = {
    'X-Api-Key': o.key ?? offlineKey,
    'X-V2bridge-Explain': '1',
  }
  if (o.account !== undefined) headers['X-Account-Id'] = String(o.account)
  const res = await app.request(target.pathname + target.search, {
    method: o.method ?? 'GET',
    headers,
  })
  if (blocked) return { kind: 'needs-lookup' }
  return { kind: 'answer', status: res.status, text: await res.text() }
}
