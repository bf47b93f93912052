/**
 * @module report/record
 * Middleware before the `/v2/*` one: after the answer, adds the call of a verified key to its
 * migration report (operation, parameter names, metric names and value types, client family, the shape of the
 * documents sent). Nothing is awaited: the store takes the call at once, and a store that writes
 * elsewhere hands its promise to the Worker's `waitUntil`.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { clientFamily } from '../../mappings/client-families'
import type { Env } from '../http/env'
import { explainHeader } from '../explain'
import type { VerifiedKeys } from '../core/identity'
import { entryKey, shapeOf, type CallEvent } from './entries'
import type { ReportStore } from './store'

export type StoreOf = (c: Context<Env>) => ReportStore

/** Past this many, the memo of sampled entries and client families starts over. */
const memoLimit = 10_000

/** `verified`: keys proven by an earlier call, so their calls that reach no upstream (a retired
 * row) count too (src/core/identity.ts). */
export function recordCalls(storeOf: StoreOf, verified: VerifiedKeys): MiddlewareHandler<Env> {
  // The report keeps one sample of documents per entry: shaped once per entry and app, not per call.
  const sampled = new Set<string>()
  const families = new Map<string, string>()
  const familyOf = (header = '') => {
    const ua = header.slice(0, 256) // bounds the memo's memory against long, ever-new headers
    let family = families.get(ua)
    if (family === undefined) {
      if (families.size >= memoLimit) families.clear()
      families.set(ua, (family = clientFamily(ua)))
    }
    return family
  }
  return async (c, next) => {
    await next()
    const keyHash = c.get('keyHash')
    const row = c.get('operation')
    // Only a key NerdGraph (or v2, or the key map) accepted, in this call or an earlier one, may
    // grow the report: a made-up key string costs nothing kept.
    if (!keyHash || !row || c.req.header(explainHeader) === '1' || c.get('internal')) return
    if (!c.get('keyVerified') && !verified.has(keyHash)) return
    const params = c.get('params')
    const names = new Set<string>()
    // `names[0]`, `names[1]`… are one parameter, `names[]`.
    for (const [name] of params?.entries() ?? []) names.add(name.replace(/\[\d+\]$/, '[]'))
    const call: CallEvent = {
      at: Date.now(),
      method: row.method,
      path: row.path,
      status: c.res.status,
      parameters: [...names].sort(),
      metricNames: row.path.endsWith('/metrics/data') ? (params?.list('names') ?? []) : [],
      valueTypes: row.path.endsWith('/metrics/data') ? (params?.list('values') ?? []) : [],
      client: familyOf(c.req.header('user-agent')),
      documents: [],
    }
    const sent = c.get('sent') ?? []
    const sample = `${keyHash} ${entryKey(call)}`
    if (sent.length && !sampled.has(sample)) {
      if (sampled.size >= memoLimit) sampled.clear()
      sampled.add(sample)
      call.documents = sent.map(shapeOf)
    }
    const pending = storeOf(c).record(keyHash, call)
    if (pending) waitUntil(c, pending)
  }
}

function waitUntil(c: Context<Env>, pending: Promise<unknown>) {
  const settled = pending.catch(() => undefined)
  try {
    c.executionCtx.waitUntil(settled)
  } catch {
    // No execution context (Node): the promise runs on by itself.
  }
}
