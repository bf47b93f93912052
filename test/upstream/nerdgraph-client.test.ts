import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { V2Error } from '../../src/core/errors'
import { createNerdGraph, operationOf, type NerdGraphOptions } from '../../src/upstream/nerdgraph'
import type { RetryClock } from '../../src/upstream/retry'
import { createUpstreamLimits } from '../../src/upstream/limits'
import { fakeFetch, type Reply } from '../helpers/fake-fetch'
import { closeServers, overHttp } from '../helpers/over-http'

const key = 'NRAK-CLIENTTEST00000000000000'
const read = 'query ListApplications($q: String) { actor { user { id } } }'
const write = 'mutation Rename($guid: EntityGuid!) { entityRename(guid: $guid) { guid } }'
const ok = { body: { data: { actor: { user: { id: 1 } } } } }
const renamed = { body: { data: { entityRename: { guid: 'G' } } } }
/** No pauses between attempts, so retry tests take no time. */
const instant: RetryClock = { now: () => Date.now(), random: () => 0, sleep: async () => {} }

/** How replies reach the client (the `through …` blocks below switch it). */
let via = (f: typeof fetch) => f

function client(replies: Reply[], overrides: Partial<NerdGraphOptions> = {}) {
  const upstream = fakeFetch(...replies)
  const ng = createNerdGraph({
    endpoint: 'https://nerdgraph.test/graphql',
    apiKey: key,
    partition: 'p1',
    timeoutMs: 2000,
    fetch: via(upstream.fetch),
    clock: instant,
    ...overrides,
  })
  return { ng, sent: upstream.sent }
}

function deferred() {
  let resolve = () => {}
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

async function failure(p: Promise<unknown>): Promise<V2Error> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e
  )
  expect(err).toBeInstanceOf(V2Error)
  return err as V2Error
}

describe('operationOf', () => {
  it('names the operation and tells queries from mutations', () => {
    expect(operationOf(read)).toEqual({ name: 'ListApplications', isMutation: false })
    expect(operationOf(`\n  # c\n  ${write}`)).toEqual({ name: 'Rename', isMutation: true })
    expect(operationOf('{ actor { user { id } } }')).toEqual({ name: undefined, isMutation: false })
  })
})

/** The scripted replies reach the client through fetch and through the Node entry's transport. */
const transports: [string, (f: typeof fetch) => typeof fetch][] = [
  ['fetch', (f) => f],
  ['the Node transport over HTTP', overHttp],
]

describe.each(transports)('through %s', (_, transport) => {
  beforeAll(() => void (via = transport))
  afterAll(async () => {
    via = (f) => f
    await closeServers()
  })

  it('sends one POST of the document and its variables, with the key as API-Key', async () => {
    const { ng, sent } = client([ok])
    const variables = { q: "SELECT 1 FROM Metric WHERE x = 'é'", n: 2 }
    expect((await ng.query(read, variables)).data).toEqual(ok.body.data)
    expect(sent).toEqual([
      {
        url: 'https://nerdgraph.test/graphql',
        headers: {
          accept: 'application/graphql-response+json, application/json',
          'api-key': key,
          'content-type': 'application/json',
          'user-agent': 'v2bridge',
        },
        query: read,
        variables,
      },
    ])
  })

  describe('retries', () => {
    it('retries a read after a 503 and answers with the second attempt', async () => {
      const { ng, sent } = client([{ status: 503, body: 'busy', contentType: 'text/plain' }, ok])
      expect((await ng.query(read)).data).toEqual(ok.body.data)
      expect(sent).toHaveLength(2)
    })

    it('gives up on a read after three attempts with 502', async () => {
      const { ng, sent } = client([{ status: 500, body: {} }])
      const err = await failure(ng.query(read))
      expect(err.status).toBe(502)
      expect(sent).toHaveLength(3)
    })

    it('retries a read after a network failure, a non-JSON body and a TIMEOUT class', async () => {
      const timeoutClass = {
        body: { data: null, errors: [{ message: 'x', extensions: { errorClass: 'TIMEOUT' } }] },
      }
      for (const first of [
        () => Promise.reject(new TypeError('fetch failed')),
        { body: '<html>', contentType: 'text/html' },
        timeoutClass,
      ] as Reply[]) {
        const { ng, sent } = client([first, ok])
        await ng.query(read)
        expect(sent).toHaveLength(2)
      }
    })

    it('does not retry a bad key or a rejected query', async () => {
      const badKey = { status: 401, body: { errors: [{ message: 'Bad API Key' }] } }
      const rejected = {
        body: {
          data: null,
          errors: [{ message: 'x', extensions: { errorClass: 'INVALID_INPUT' } }],
        },
      }
      for (const reply of [badKey, rejected]) {
        const { ng, sent } = client([reply, ok])
        await failure(ng.query(read))
        expect(sent).toHaveLength(1)
      }
    })

    it('never retries a mutation after a 5xx, a network failure or a timeout class', async () => {
      for (const reply of [
        { status: 503, body: {} },
        () => Promise.reject(new TypeError('fetch failed')),
        { body: { data: null, errors: [{ message: 'x', extensions: { errorClass: 'TIMEOUT' } }] } },
      ] as Reply[]) {
        const { ng, sent } = client([reply, ok])
        await failure(ng.query(write))
        expect(sent).toHaveLength(1)
      }
    })

    it('retries a mutation only after HTTP 429, which NerdGraph answers before running it, when it says when', async () => {
      const told: Reply = async () =>
        new Response('{"errors":[{"message":"slow down"}]}', {
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after': '0' },
        })
      const { ng, sent } = client([told, renamed])
      await ng.query(write)
      expect(sent).toHaveLength(2)
    })

    it('never retries a 429 NerdGraph gave no Retry-After: answered at once, Retry-After 60', async () => {
      for (const query of [read, write]) {
        const { ng, sent } = client([{ status: 429, body: { errors: [{ message: 'x' }] } }, ok])
        const err = await failure(ng.query(query))
        expect(err.status).toBe(429)
        expect(err.headers['Retry-After']).toBe('60')
        expect(sent).toHaveLength(1)
      }
      const throttled = {
        body: {
          data: null,
          errors: [{ message: 'x', extensions: { errorClass: 'TOO_MANY_REQUESTS' } }],
        },
      }
      const { ng, sent } = client([throttled, ok])
      expect((await failure(ng.query(read))).headers['Retry-After']).toBe('60')
      expect(sent).toHaveLength(1)
    })

    it('lets the caller choose the policy per call', async () => {
      const none = client([{ status: 503, body: {} }, ok])
      await failure(none.ng.query(read, {}, { retry: 'none' }))
      expect(none.sent).toHaveLength(1)
      const asRead = client([{ status: 503, body: {} }, renamed])
      await asRead.ng.query(write, {}, { retry: 'read' })
      expect(asRead.sent).toHaveLength(2)
    })

    it('keeps every attempt and pause within the upstream timeout budget', async () => {
      const hang = () => new Promise<Response>(() => {})
      // Real time, no jitter: a jittered pause may leave less than an attempt's minimum, which ends
      // the retries by design and would make the count below a matter of chance.
      const clock: RetryClock = {
        now: () => Date.now(),
        random: () => 0,
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      }
      const { ng, sent } = client([hang], { timeoutMs: 600, clock })
      const started = Date.now()
      const err = await failure(ng.query(read))
      expect(err.status).toBe(504)
      // A hung attempt keeps room for a retry (src/upstream/retry.ts attemptMs); all of them end in the budget.
      expect(Date.now() - started).toBeLessThan(900)
      expect(sent.length).toBeGreaterThanOrEqual(2)
      expect(sent.length).toBeLessThanOrEqual(3)
    })

    it('pauses with jitter between attempts and stops when the budget would run out', async () => {
      const pauses: number[] = []
      const clock: RetryClock = {
        now: () => Date.now(),
        random: () => 0.5,
        sleep: async (ms) => void pauses.push(ms),
      }
      const { ng } = client([{ status: 502, body: {} }], { clock })
      await failure(ng.query(read))
      expect(pauses).toEqual([50, 100]) // half of 100·2^0 and of 100·2^1
      pauses.length = 0
      // 100 ms budget: a 99 ms pause plus the 25 ms an attempt needs at least would cross it.
      const short = client([{ status: 502, body: {} }], {
        clock: { ...clock, random: () => 0.99 },
        timeoutMs: 100,
      })
      await failure(short.ng.query(read))
      expect(pauses).toEqual([])
      expect(short.sent).toHaveLength(1)
    })

    it('answers 429 with NerdGraph’s Retry-After when it does not fit the budget', async () => {
      const reply = async () =>
        new Response('{"errors":[{"message":"Too many requests"}]}', {
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after': '30' },
        })
      const { ng, sent } = client([reply])
      const err = await failure(ng.query(read))
      expect(err.status).toBe(429)
      expect(err.headers['Retry-After']).toBe('30')
      expect(err.headers['X-RateLimit-Reset']).toBe(
        err.headers['NewRelic-OverloadProtection-Reset']
      )
      expect(sent).toHaveLength(1)
    })
  })

  describe('upstream faults', () => {
    it('maps every fault to a v2 status and a title of its own, never NerdGraph’s text', async () => {
      const secret = "NRQL near 'cust-4711'"
      const cases: [Reply, number][] = [
        [{ status: 401, body: { errors: [{ message: secret }] } }, 401],
        [{ status: 403, body: { errors: [{ message: secret }] } }, 403],
        [{ status: 429, body: { errors: [{ message: secret }] } }, 429],
        [{ status: 500, body: { errors: [{ message: secret }] } }, 502],
        [{ status: 502, body: `<html>${secret}</html>`, contentType: 'text/html' }, 502],
        [{ status: 400, body: { errors: [{ message: secret }] } }, 502],
        [{ status: 200, body: `{"data":{"actor"`, contentType: 'application/json' }, 502],
        [{ status: 200, body: `<html>${secret}`, contentType: 'text/html' }, 502],
        [{ status: 200, body: { data: null } }, 502],
        [() => Promise.reject(new TypeError(secret)), 502],
        [
          {
            body: {
              data: null,
              errors: [{ message: secret, extensions: { errorClass: 'TIMEOUT' } }],
            },
          },
          504,
        ],
        [
          {
            body: {
              data: null,
              errors: [{ message: secret, extensions: { errorClass: 'TOO_MANY_REQUESTS' } }],
            },
          },
          429,
        ],
      ]
      for (const [reply, status] of cases) {
        const { ng } = client([reply])
        const err = await failure(ng.query(read))
        expect(err.status, JSON.stringify(reply)).toBe(status)
        expect(err.title).not.toContain('cust-4711')
        if (status === 429) {
          expect(err.headers['X-RateLimit-Limit']).toBe('1000')
          expect(err.headers['Retry-After']).toMatch(/^\d+$/)
        }
      }
    })

    it('fails the whole call on TOO_MANY_REQUESTS even beside data', async () => {
      const body = {
        data: { actor: { user: { id: 1 } } },
        errors: [
          { message: 'x', path: ['actor'], extensions: { errorClass: 'TOO_MANY_REQUESTS' } },
        ],
      }
      const { ng } = client([{ body }])
      expect((await failure(ng.query(read, {}, { partial: 'tolerate' }))).status).toBe(429)
    })
  })
})

describe('partial errors beside data', () => {
  const partial = (errors: object[]) => ({
    body: {
      data: { actor: { user: { id: 1 }, a0: { nrql: { results: [] } }, a1: { nrql: null } } },
      errors,
    },
  })
  const aliasTimeout = {
    message: 'NRDB query duration exceeded the set timeout',
    path: ['actor', 'a1', 'nrql'],
    extensions: { errorClass: 'TIMEOUT' },
  }

  it('fails a listed `fail` operation with the mapped status of the worst error', async () => {
    const { ng } = client([partial([aliasTimeout])], { clock: { ...instant } })
    const err = await failure(ng.query(read)) // ListApplications fails on every alias but `conditions`
    expect(err.status).toBe(504)
  })

  // mappings/partial-errors.ts `alerts-optional`: a key that may read applications but not alerts
  // gets its applications without `links.alert_policy` (issue 37).
  it('hands errors under a `conditions` alias to the route under `alerts-optional`', async () => {
    const denied = { message: 'Access denied.', path: ['actor', 'a0', 'conditions'] }
    const { ng } = client([partial([denied])])
    const res = await ng.query(read) // ListApplications is `alerts-optional`
    expect(res.errors.map((e) => e.path)).toEqual([['actor', 'a0', 'conditions']])
    const both = client([partial([denied, aliasTimeout])], { clock: { ...instant } })
    expect((await failure(both.ng.query(read, {}, { partial: 'alerts-optional' }))).status).toBe(
      504
    )
  })

  it('fails operations missing from the table', async () => {
    const { ng } = client([partial([aliasTimeout])])
    expect((await failure(ng.query('query Unlisted { actor { a0 } }'))).status).toBe(504)
  })

  it('hands field errors to the route under `tolerate`, with the data that did come back', async () => {
    const { ng } = client([partial([aliasTimeout])])
    const res = await ng.query<{ actor: Record<string, unknown> }>(
      read,
      {},
      { partial: 'tolerate' }
    )
    expect(res.data.actor['a1']).toEqual({ nrql: null })
    expect(res.errors.map((e) => e.path)).toEqual([['actor', 'a1', 'nrql']])
  })

  it('still fails under `tolerate` when an error has no path', async () => {
    const { ng } = client([partial([{ message: 'x', extensions: { errorClass: 'SERVER_ERROR' } }])])
    expect((await failure(ng.query(read, {}, { partial: 'tolerate' }))).status).toBe(502)
  })

  it('ignores deprecation notices under every policy', async () => {
    const notice = { message: 'This field is deprecated! Use y', path: ['actor', 'a0'] }
    const { ng } = client([partial([notice])])
    expect((await ng.query(read)).errors).toEqual([])
  })
})

describe('coalescing and limits', () => {
  it('sends identical concurrent reads for one key once; followers get their own copy', async () => {
    const limits = createUpstreamLimits()
    const gate = deferred()
    const upstream = fakeFetch(async () => {
      await gate.promise
      return Response.json(ok.body)
    })
    const make = (partition: string) =>
      createNerdGraph({
        endpoint: 'https://nerdgraph.test/graphql',
        apiKey: key,
        partition,
        timeoutMs: 2000,
        fetch: upstream.fetch,
        limits,
      })
    const [a, b, c] = [make('p1'), make('p1'), make('p2')]
    const calls = [a.query(read, { q: 1 }), b.query(read, { q: 1 }), c.query(read, { q: 1 })]
    const different = a.query(read, { q: 2 })
    await new Promise((r) => setTimeout(r, 20))
    gate.resolve()
    const [ra, rb] = await Promise.all([...calls, different])
    expect(upstream.sent).toHaveLength(3) // p1 q1 once, p2 q1, p1 q2
    expect(rb).toEqual(ra)
    expect(rb!.data).not.toBe(ra!.data)
    expect(limits.snapshot()).toEqual({ keys: 0, inFlight: 0, queued: 0, coalescing: 0 })
  })

  it('never coalesces mutations', async () => {
    const { ng, sent } = client([renamed])
    await Promise.all([ng.query(write), ng.query(write)])
    expect(sent).toHaveLength(2)
  })

  it('keeps at most 25 requests of one key in flight and queues the rest', async () => {
    let inFlight = 0
    let peak = 0
    const upstream = fakeFetch(async () => {
      peak = Math.max(peak, ++inFlight)
      await new Promise((r) => setTimeout(r, 10))
      inFlight--
      return Response.json(ok.body)
    })
    const limits = createUpstreamLimits()
    const ng = createNerdGraph({
      endpoint: 'https://nerdgraph.test/graphql',
      apiKey: key,
      partition: 'p1',
      timeoutMs: 5000,
      fetch: upstream.fetch,
      limits,
    })
    await Promise.all(Array.from({ length: 100 }, (_, i) => ng.query(read, { q: i })))
    expect(upstream.sent).toHaveLength(100)
    expect(peak).toBe(25)
  })

  it('answers 429 in v2 terms when the queue of a key is full', async () => {
    const gate = deferred()
    const upstream = fakeFetch(async () => {
      await gate.promise
      return Response.json(ok.body)
    })
    const ng = createNerdGraph({
      endpoint: 'https://nerdgraph.test/graphql',
      apiKey: key,
      partition: 'p1',
      timeoutMs: 5000,
      fetch: upstream.fetch,
      limits: createUpstreamLimits({ maxInFlight: 2, maxQueued: 3 }),
    })
    const calls = Array.from({ length: 8 }, (_, i) =>
      ng.query(read, { q: i }).then(
        () => 200,
        (e: V2Error) => e
      )
    )
    await new Promise((r) => setTimeout(r, 20))
    gate.resolve()
    const results = await Promise.all(calls)
    expect(results.filter((r) => r === 200)).toHaveLength(5)
    const refused = results.filter((r): r is V2Error => r instanceof V2Error)
    expect(refused).toHaveLength(3)
    for (const err of refused) {
      expect(err.status).toBe(429)
      expect(err.headers['NewRelic-OverloadProtection-Reset']).toBe(
        err.headers['X-RateLimit-Reset']
      )
    }
  })

  it('answers 429, not 504, when a request waited its whole budget for a slot', async () => {
    const gate = deferred()
    const upstream = fakeFetch(async () => {
      await gate.promise
      return Response.json(ok.body)
    })
    const limits = createUpstreamLimits({ maxInFlight: 1 })
    const client = (timeoutMs: number) =>
      createNerdGraph({
        endpoint: 'https://nerdgraph.test/graphql',
        apiKey: key,
        partition: 'p1',
        timeoutMs,
        fetch: upstream.fetch,
        limits,
      })
    const holder = client(5000).query(read, { q: 'holder' })
    const waiter = await client(150)
      .query(read, { q: 'waiter' })
      .then(
        () => 200,
        (e: V2Error) => e
      )
    gate.resolve()
    await holder
    expect(waiter).toBeInstanceOf(V2Error)
    expect((waiter as V2Error).status).toBe(429)
    expect(upstream.sent).toHaveLength(1) // the waiter never reached NerdGraph
  })
})
