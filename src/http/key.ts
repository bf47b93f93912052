/**
 * @module http/key
 * The caller's key, from the first of its headers sent: 401 when none or unusable; otherwise its
 * fingerprint (the partition of every cache) and the user key it stands for (a legacy key through
 * `KEY_MAP`, src/core/keys.ts), which alone goes upstream. The key is never logged or echoed.
 */
import type { MiddlewareHandler } from 'hono'
import { V2Error, titles } from '../core/errors'
import type { Fingerprint } from '../core/identity'
import { upstreamKeyFor } from '../core/keys'
import type { Env } from './env'

/** Where each entry takes the key: v2 as `X-Api-Key` (or `Api-Key`); the legacy deployments API
 * v0 also as `x-license-key` (New Relic docs "Legacy deployments API v0"). */
export const keyHeaders = {
  v2: ['x-api-key', 'api-key'],
  v0: ['x-api-key', 'x-license-key', 'api-key'],
} as const

/** A key NerdGraph could accept: printable ASCII without spaces, at most 256 characters. */
const plausibleKey = /^[\x21-\x7e]{1,256}$/

export function callerKey(
  fingerprint: Fingerprint,
  headers: readonly string[]
): MiddlewareHandler<Env> {
  return async (c, next) => {
    const header = headers.find((h) => c.req.header(h)?.trim())
    const apiKey = header && c.req.header(header)!.trim()
    if (!apiKey) throw new V2Error(401, titles.noKey)
    if (!plausibleKey.test(apiKey)) throw new V2Error(401, titles.badKey)
    const keyHash = await fingerprint(apiKey)
    c.set('apiKey', apiKey)
    c.set('keyHash', keyHash)
    const use = header === 'x-license-key' ? 'license' : 'rest'
    const { key, account, mapped } = upstreamKeyFor(apiKey, keyHash, c.get('config').keyMap, use)
    if (account !== undefined) c.set('keyAccount', account)
    if (mapped) c.set('keyVerified', true)
    c.set('upstreamKey', key)
    return next()
  }
}
