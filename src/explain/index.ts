/**
 * @module explain
 * Explain mode: a v2 request with `X-V2bridge-Explain: 1`, or under `/explain/v2/…`, is planned, not
 * executed. The request's NerdGraph client lets lookups through and records the first other document
 * (src/upstream/explain-client.ts); the answer is then the plan (src/explain/plan.ts) in JSON. Generic: every
 * route that talks to NerdGraph through `c.get('nerdgraph')` is explained without code of its own.
 */
import type { Context, Hono, MiddlewareHandler } from 'hono'
import { CacheRegistry } from '../core/cache'
import { nerdgraphUrls, v2Urls } from '../core/config'
import { checkKey } from '../upstream/key-check'
import { allowlisted, forwardedHeaders } from '../http/forward'
import type { Env } from '../http/env'
import { ExplainStop, notingClient, type SentDocument } from '../upstream/explain-client'
import { fieldsKey, type FieldTable } from './fields'
import { explainBody, userKeyVariable } from './plan'

export const explainHeader = 'X-V2bridge-Explain'
/** Headers that carry the caller's key; explain shows a placeholder instead. */
const keyHeaders = new Set(['x-api-key', 'api-key', 'x-license-key'])
// `/explain/deployments…` explains the legacy v0 call as `/explain/v2/…` does the v2 ones.
const prefixes = ['/explain/v2/', '/explain/deployments']

/** `url` when it is one of New Relic's public `urls`, else `placeholder`. */
const publicOr = (url: string, urls: Record<string, string>, placeholder: string) =>
  Object.values(urls).includes(url) ? url : placeholder

export interface ExplainOptions {
  /** Answer without checking the key (the offline `v2bridge explain`, whose caller is the
   * operator). */
  trustKey?: boolean
}

/** Middleware after the `/v2/*` one: wraps the request's NerdGraph client, answers the plan. */
export function explainMode(
  fieldTable: (c: Context<Env>) => Promise<FieldTable>,
  options: ExplainOptions = {}
): MiddlewareHandler<Env> {
  return async (c, next) => {
    const explain = c.req.header(explainHeader) === '1'
    const sent: SentDocument[] = []
    c.set('sent', sent)
    c.set('nerdgraph', notingClient(c.get('nerdgraph'), sent, explain))
    if (!explain) return next()

    const plan = async () => {
      const url = new URL(c.req.url)
      const config = c.get('config')
      const row = c.get('operation')
      return explainBody({
        row,
        method: c.req.method,
        url,
        params: c.get('params').entries(),
        sent,
        // Only the public endpoints are shown: a private NERDGRAPH_URL or V2_URL (a proxy, a test
        // stand-in) is the operator's, not the caller's, to know.
        endpoint: publicOr(config.nerdgraphUrl, nerdgraphUrls, '$NERDGRAPH_URL'),
        region: config.region,
        v2Url: publicOr(config.v2Url, v2Urls, '$V2_URL'),
        fields: (await fieldTable(c))[fieldsKey(row)] ?? {},
        readable: c.get('readable')?.() ?? [],
        forwardHeaders: [...allowlisted(c.req.raw.headers, forwardedHeaders.request)].map(
          ([name, value]): [string, string] => [
            name,
            keyHeaders.has(name) ? userKeyVariable : value,
          ]
        ),
      })
    }
    const answer = async () => {
      // A plan only for a key NerdGraph accepts: a lookup may already have proved it.
      if (!c.get('keyVerified') && !options.trustKey)
        await checkKey(c.get('nerdgraph'), { lookup: true })
      return new Response(JSON.stringify(await plan(), null, 2), {
        headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
      })
    }
    if (c.get('operation').answer === 'forwarded') return answer()
    // Fresh caches: a cached answer must not hide the documents a call sends.
    c.set('caches', new CacheRegistry())
    await next()
    // A v2 error before any document (bad parameter, unknown ID) is the answer itself.
    if (!(c.error instanceof ExplainStop) && !sent.some((s) => !s.lookup)) return
    c.res = undefined
    c.res = await answer()
  }
}

/** Serves `/explain/v2/…` as the same v2 request with the explain header. */
export function withExplainPrefix<A extends Hono<Env>>(app: A): A {
  const fetch = app.fetch
  app.fetch = (req, env, ctx) => {
    if (!req.url.includes('/explain/')) return fetch(req, env, ctx)
    const url = new URL(req.url)
    if (!prefixes.some((p) => url.pathname.startsWith(p))) return fetch(req, env, ctx)
    url.pathname = url.pathname.slice('/explain'.length)
    const headers = new Headers(req.headers)
    headers.set(explainHeader, '1')
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
    // `duplex: 'half'` lets a streamed body through (fetch standard; Node requires it).
    const init: RequestInit & { duplex?: 'half' } = {
      method: req.method,
      headers,
      body: hasBody ? req.body : null,
      signal: req.signal,
      ...(hasBody ? { duplex: 'half' } : {}),
    }
    return fetch(new Request(url, init), env, ctx)
  }
  return app
}
