/**
 * @module upstream/reuse
 * NRQL answers shared across callers: NerdGraph counts 3,000 NRQL queries per account a minute and
 * 120 runs of one identical query per user a minute (New Relic docs "Rate limits with NRQL"), so a
 * fleet of exporters reading the same applications every minute must not send each read itself.
 * A read is shared when its document asks nothing but NRQL of one account (`actor { account(id:
 * $accountId) { nrql … } }`) and every query reads `Metric` over an absolute window: the same
 * document and variables (account, NRQL, window) have one answer, which any caller whose key has
 * read that account may get, from an identical request in flight or, for the time it stays true,
 * from memory. A window that ended `settleMs` ago describes settled minutes and does not change
 * (kept `closedMs`). Late data still lands in the minutes just closed (agents send once a minute:
 * New Relic docs "Monitor short-lived .NET processes", "The APM harvest cycle is 60 seconds"), so
 * a window that ended since is reused for `recentMs`, the minute in which callers ask for it; one
 * that reaches into the current minute only for `openMs`.
 *
 * Security: a key gets a shared answer only for an account NerdGraph answered that key for: its own
 * answer without errors, or the key's own accounts (`accessDocument`, asked when another caller's
 * answer is there to share), kept per key fingerprint for `proofMs`, bounded; until then it sends
 * its own request and NerdGraph decides. Only answers
 * NerdGraph gave without errors are kept, and only keys it accepted get a place.
 *
 * A second tier (`SharedAnswerStore`, src/upstream/answer-store.ts; the Worker's Cache API) holds
 * the same answers beyond one process: read on a memory miss before sending, written when an answer
 * is kept, under the same rules and for the same time. It is keyed by a hash of the document and
 * variables only, and a key gets what it holds only once proven as above.
 */
import { gql } from 'graphql-request'
import { copyJson } from './json-copy'
import { storeKey, withinWait, type SharedAnswerStore } from './answer-store'

/** The accounts a key may read and its user (schema `Actor.accounts`, `Actor.user`): asked only
 * when another caller's answer could serve the key, which NerdGraph has not answered for that
 * account yet. */
export const accessDocument = gql`
  query Access {
    actor {
      user {
        id
      }
      accounts {
        id
      }
    }
  }
`

export interface AccessData {
  actor: { user: { id: number | null } | null; accounts: { id: number }[] | null }
}

export interface ReuseSettings {
  /** How long a settled window's answer is kept (it does not change; this bounds memory). */
  closedMs: number
  /** How long after its end a window is settled: its minutes get no more late data. */
  settleMs: number
  /** How long the answer of a window that ended before the current minute, but is not settled, is
   * reused. */
  recentMs: number
  /** How long an answer whose window reaches into the current minute is reused. */
  openMs: number
  /** How long an account stays readable for a key after NerdGraph answered the key for it. */
  proofMs: number
  /** Approximate bytes of answers kept (`sizeWithin`), least recent first out; one answer over a
   * 32nd of it is not kept. */
  maxBytes: number
  /** Keys whose readable accounts are kept. */
  maxKeys: number
  /** Accounts kept per key. */
  maxAccountsPerKey: number
  /** How long a read or write of the `SharedAnswerStore` may hold a call; past it, a miss. */
  storeWaitMs: number
}

export const defaultReuse: ReuseSettings = {
  closedMs: 60 * 60_000,
  settleMs: 3 * 60_000,
  recentMs: 60_000,
  openMs: 5_000,
  proofMs: 10 * 60_000,
  maxBytes: 32 * 2 ** 20,
  maxKeys: 10_000,
  maxAccountsPerKey: 1_000,
  storeWaitMs: 25,
}

/** An answer the `SharedAnswerStore` holds, and until when (epoch ms) it stays true. */
export interface StoredAnswer {
  value: unknown
  until: number
}

interface Kept {
  value: unknown
  until: number
  bytes: number
}

export interface SharedReads {
  /** The account a shareable read asks, or undefined (not shared). */
  accountOf(document: string, variables: Record<string, unknown>): number | undefined
  /** Whether NerdGraph answered the key of `partition` for `account` within `proofMs`. */
  mayRead(partition: string, account: number, now: number): boolean
  /** Records that NerdGraph answered the key of `partition` for `account` without errors. */
  proved(partition: string, account: number, now: number): void
  /** Whether a kept answer is still true at `now` (no recency change). */
  has(id: string, now: number): boolean
  /** A kept answer still true at `now`, or undefined. */
  get(id: string, now: number): unknown
  /** Keeps a copy of an answer for as long as its window (the NRQL in `variables`) says it stays
   * true; an answer over a 32nd of `maxBytes` is not kept (and not copied). With a store, writes it
   * there too: the promise settles when the write did, or after `storeWaitMs`; it never rejects. */
  set(id: string, value: unknown, variables: Record<string, unknown>, now: number): Promise<void>
  /** The store's answer for `id` still true at `now`, not kept: undefined without a store, on a
   * miss, a failure or after `storeWaitMs`. Serve it only to a key that `mayRead` its account. */
  fromStore(id: string, now: number): Promise<StoredAnswer | undefined>
  /** Keeps what `fromStore` gave (not copied: it was parsed for this call) until its `until`. */
  keep(id: string, stored: StoredAnswer, now: number): void
  snapshot(): { answers: number; bytes: number; keys: number }
}

const minute = 60_000

/** Every `nrql` field of one account and nothing else (the documents of
 * src/upstream/nrql-document.ts and src/resources/metrics/documents.ts). */
const accountOnly =
  /^\s*query\s+\w+\s*\([^)]*\)\s*\{\s*actor\s*\{\s*account\(id:\s*\$accountId\)\s*\{([\s\S]*)\}\s*\}\s*\}\s*$/

/** True when `inner` holds only (aliased) `nrql(…) { … }` fields at its top level. */
function onlyNrqlFields(inner: string): boolean {
  let depth = 0
  let top = ''
  for (const ch of inner) {
    if (ch === '(' || ch === '{') depth++
    else if (ch === ')' || ch === '}') depth--
    else if (depth === 0) top += ch
    if (depth < 0) return false
  }
  return depth === 0 && /^(?:\s*(?:\w+\s*:\s*)?nrql\s*)+$/.test(top)
}

/** The tail of a query over an absolute window, from its last ` SINCE `: nothing caller-sent can
 * be in it, as every caller value is quoted (src/core/nrql.ts) and the tail holds no quote. */
const absoluteTail =
  /^ SINCE \d{1,15} UNTIL (\d{1,15})(?: TIMESERIES \d+ minutes?| FACET [\w., ]+| LIMIT MAX)*$/

/** The end (epoch ms) of the window of a `Metric` query over an absolute window, else undefined.
 * Plain string searches, no backtracking over a long caller-sent name list. */
function metricWindowEnd(nrql: string): number | undefined {
  if (!nrql.startsWith('SELECT ') || !nrql.includes(' FROM Metric WHERE ')) return undefined
  const m = absoluteTail.exec(nrql.slice(nrql.lastIndexOf(' SINCE ')))
  return m ? Number(m[1]) : undefined
}

/** The latest end of the windows of the NRQL in `variables`, or undefined when one is not a
 * `Metric` query over an absolute window. */
function windowEnd(variables: Record<string, unknown>): number | undefined {
  let end: number | undefined
  for (const [name, value] of Object.entries(variables)) {
    if (name === 'accountId' || name === 'timeout') continue
    const until = typeof value === 'string' ? metricWindowEnd(value) : undefined
    if (until === undefined) return undefined
    end = Math.max(end ?? 0, until)
  }
  return end
}

/** About the bytes a JSON `value` holds in memory (two a character, and a fixed overhead per value,
 * key and container), or Infinity as soon as it passes `limit`: a large answer is not walked whole to learn it is too large. */
function sizeWithin(value: unknown, limit: number): number {
  let bytes = 0
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const v = stack.pop()
    if (typeof v === 'string') bytes += 24 + 2 * v.length
    else if (v === null || typeof v !== 'object') bytes += 16
    else if (Array.isArray(v)) {
      bytes += 40
      for (const item of v) stack.push(item)
    } else {
      bytes += 40
      for (const key in v) {
        bytes += 24 + 2 * key.length
        stack.push((v as Record<string, unknown>)[key])
      }
    }
    if (bytes > limit) return Infinity
  }
  return bytes
}

/**
 * `store`: the second tier; `scope` (the NerdGraph endpoint) is hashed into its keys, so answers of
 * two endpoints never meet.
 */
export function createSharedReads(
  settings: Partial<ReuseSettings> = {},
  store?: { store: SharedAnswerStore; scope: string }
): SharedReads {
  const s = { ...defaultReuse, ...settings }
  const verdicts = new Map<string, boolean>()
  const answers = new Map<string, Kept>()
  const readable = new Map<string, Map<number, number>>()
  let bytes = 0

  const drop = (id: string, kept: Kept) => {
    answers.delete(id)
    bytes -= kept.bytes
  }
  /** Keeps `value` (a copy when `copy`) until `until`, least recent out past maxBytes: what it
   * keeps, or undefined (not true at `now`, or over a 32nd of maxBytes, not walked whole). */
  const hold = (id: string, value: unknown, until: number, now: number, copy: boolean) => {
    const old = answers.get(id)
    if (old) drop(id, old)
    if (until <= now) return undefined
    const size = sizeWithin(value, s.maxBytes / 32 - 2 * id.length) + 2 * id.length
    if (size > s.maxBytes / 32) return undefined
    const kept = copy ? copyJson(value) : value
    answers.set(id, { value: kept, until, bytes: size })
    bytes += size
    while (bytes > s.maxBytes) {
      const [oldest, entry] = answers.entries().next().value!
      drop(oldest, entry)
    }
    return kept
  }
  /** The store's work on `id`'s key, within `storeWaitMs` (undefined past it or on failure). */
  const atKey = <T>(id: string, work: (store: SharedAnswerStore, key: string) => Promise<T>) =>
    store
      ? withinWait(
          storeKey(store.scope, id).then((key) => work(store.store, key)),
          s.storeWaitMs
        )
      : undefined

  return {
    accountOf(document, variables) {
      let shareable = verdicts.get(document)
      if (shareable === undefined) {
        const m = accountOnly.exec(document)
        shareable = m !== null && onlyNrqlFields(m[1]!)
        if (verdicts.size < 1_000) verdicts.set(document, shareable)
      }
      const account = variables['accountId']
      if (!shareable || typeof account !== 'number') return undefined
      return windowEnd(variables) === undefined ? undefined : account
    },
    mayRead(partition, account, now) {
      const until = readable.get(partition)?.get(account)
      return until !== undefined && until > now
    },
    proved(partition, account, now) {
      let accounts = readable.get(partition)
      readable.delete(partition) // most recent last
      if (!accounts) accounts = new Map()
      readable.set(partition, accounts)
      accounts.delete(account)
      accounts.set(account, now + s.proofMs)
      if (accounts.size > s.maxAccountsPerKey) accounts.delete(accounts.keys().next().value!)
      if (readable.size > s.maxKeys) readable.delete(readable.keys().next().value!)
    },
    has: (id, now) => (answers.get(id)?.until ?? 0) > now,
    get(id, now) {
      const kept = answers.get(id)
      if (!kept) return undefined
      if (kept.until <= now) {
        drop(id, kept)
        return undefined
      }
      answers.delete(id) // most recent last
      answers.set(id, kept)
      return kept.value
    },
    async set(id, value, variables, now) {
      const end = windowEnd(variables)
      if (end === undefined) return
      const closed = end <= Math.floor(now / minute) * minute
      const settled = end <= now - s.settleMs
      const until = now + (settled ? s.closedMs : closed ? s.recentMs : s.openMs)
      const kept = hold(id, value, until, now, true)
      if (kept !== undefined)
        await atKey(id, (to, key) => to.put(key, { value: kept, until }, until - now))
    },
    async fromStore(id, now) {
      // Only `set` writes the store: what has a later `until` is a StoredAnswer.
      const found = (await atKey(id, (from, key) => from.get(key))) as
        Partial<StoredAnswer> | null | undefined
      return (found?.until ?? 0) > now ? (found as StoredAnswer) : undefined
    },
    keep(id, stored, now) {
      // Never longer than this process would keep it itself.
      hold(id, stored.value, Math.min(stored.until, now + s.closedMs), now, false)
    },
    snapshot: () => ({ answers: answers.size, bytes, keys: readable.size }),
  }
}
