/**
 * @module cli/key-transport
 * Where the command line may send a key, and how: over TLS, or in clear only to this machine (a
 * demo, a bridge behind a local proxy); a redirect is followed only on the same origin, never with
 * the key to another host; every call has a deadline. Every upstream answer the command line reads
 * is read by `bodyText`, through `cliFetch`'s byte limit. Used by doctor, `doctor --bridge` and verify.
 */
import { defaultAnswerMaxBytes } from '../core/config'
import { boundedFetch } from '../upstream/answer-body'

const loopback = ['localhost', '127.0.0.1', '[::1]']

/** The key may not go where it was to be sent: said in one line, exit 2 (src/cli/main.ts). */
export class KeyRefused extends Error {
  override name = 'KeyRefused'
}

/** Whether `url` may carry the key: https, or http to a loopback host. */
export function keySafeTo(url: string): boolean {
  const { protocol, hostname } = new URL(url)
  return protocol === 'https:' || (protocol === 'http:' && loopback.includes(hostname))
}

/** Throws KeyRefused unless `url` (named `what` in the message) may carry the key. */
export function checkKeyTarget(url: string, what: string): void {
  let safe: boolean
  try {
    safe = keySafeTo(url)
  } catch {
    throw new KeyRefused(`${what} ${url} is not a URL`)
  }
  if (!safe)
    throw new KeyRefused(
      `${what} ${url} is not https: the key is sent only over TLS or to this machine (localhost)`
    )
}

export interface KeyFetchOptions {
  fetch?: typeof fetch
  /** Milliseconds for the call, its answer's body included. */
  timeoutMs: number
  /** A deadline of the whole run, beside the call's own. */
  signal?: AbortSignal
  what: string
}

const redirects = 5

/** `fetch` of a request that carries the key: refused for a URL the key may not go to; a redirect
 * followed by hand on the same origin only (another origin is refused, the key is never sent
 * there); aborted past `timeoutMs` or the run's signal. */
export async function keyFetch(
  url: string,
  init: RequestInit,
  o: KeyFetchOptions
): Promise<Response> {
  const signals = [AbortSignal.timeout(o.timeoutMs), ...(o.signal ? [o.signal] : [])]
  const signal = AbortSignal.any(signals)
  let target = url
  for (let hop = 0; ; hop++) {
    checkKeyTarget(target, o.what)
    const res = await (o.fetch ?? globalThis.fetch)(target, {
      ...init,
      redirect: 'manual',
      signal,
    })
    const location = res.headers.get('location')
    if (res.status < 300 || res.status >= 400 || !location) return res
    const next = new URL(location, target)
    if (next.origin !== new URL(target).origin || hop >= redirects)
      throw new KeyRefused(
        `${o.what} ${url} redirects to ${next.origin}: the key is not sent to another host`
      )
    await res.body?.cancel()
    target = next.href
  }
}

/** A fetch for createApp's upstream calls, with the key rules of `keyFetch`. */
export function keyFetchOf(o: Omit<KeyFetchOptions, 'what'>, what: string): typeof fetch {
  return async (input, init) => {
    const req = new Request(input, init)
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await req.text()
    return keyFetch(
      req.url,
      { method: req.method, headers: req.headers, ...(body === undefined ? {} : { body }) },
      { ...o, what }
    )
  }
}

/** The text of an upstream answer: the one place the command line reads an answer's body. */
export function bodyText(res: Response): Promise<string> {
  return res.text()
}

/** An answer's JSON, or undefined when its body is not JSON. */
export async function bodyJson(res: Response): Promise<unknown> {
  const text = await bodyText(res)
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** The command line's fetch (`doctor`, `verify`): every answer's body, read any way, fails past
 * `UPSTREAM_MAX_BYTES` decoded bytes, as the server's upstream reads do (src/upstream/answer-body.ts). */
export function cliFetch(
  fetchImpl: typeof fetch = (input, init) => globalThis.fetch(input, init),
  maxBytes = defaultAnswerMaxBytes
): typeof fetch {
  return boundedFetch(fetchImpl, maxBytes)
}
