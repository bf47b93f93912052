import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { DEMO_KEYS, harness } from '../helpers/harness'
import { expectGolden, pretty } from '../helpers/golden'
import { harvestOffsetMs } from '../../simulator'

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19) + '+00:00'
import { expectStrictV2 } from '../helpers/strict-client'

const now = Date.parse('2026-11-20T12:00:30.000Z')
beforeAll(() => void vi.useFakeTimers({ toFake: ['Date'], now }))
afterAll(() => void vi.useRealTimers())

type H = ReturnType<typeof harness>
const upstream = (h: H) => h.sim.stats().graphqlRequests

interface KeyTransaction {
  id: number
  name: string
  transaction_name: string
  health_status: string
  reporting: boolean
  last_reported_at?: string
  application_summary?: Record<string, number>
  end_user_summary?: Record<string, number>
  links: { application: number }
}

async function list(h: H, path: string, init = {}) {
  const res = await h.get(path, init)
  expect(res.status).toBe(200)
  return { res, body: (await res.json()) as { key_transactions: KeyTransaction[] } }
}

/** Ground truth from the simulator's rows: the last 10 whole minutes before now. */
function truth(h: H, guid: string, accountId: number) {
  const until = Math.floor(now / 60_000) * 60_000
  const rows = [
    ...h.dataset.store.scan({ accountId, since: until - 600_000, until, entityGuids: [guid] }),
  ].filter((r) => r.entityGuid === guid)
  const sum = (name: (n: string) => boolean, f: (r: (typeof rows)[number]) => number) =>
    rows.filter((r) => name(r.metricTimesliceName)).reduce((a, r) => a + f(r), 0)
  const isTx = (n: string) => n.startsWith('WebTransaction/')
  const calls = sum(isTx, (r) => r.value.count)
  const time = sum(isTx, (r) => r.value.total)
  const [s, t, f] = [
    sum(
      (n) => n === 'Apdex',
      (r) => r.value.count
    ),
    sum(
      (n) => n === 'Apdex',
      (r) => r.value.total
    ),
    sum(
      (n) => n === 'Apdex',
      (r) => r.value.totalExclusive
    ),
  ]
  return { calls, responseMs: (time / calls) * 1000, apdex: (s + t / 2) / (s + t + f) }
}

const sig3 = (x: number) => Number(x.toPrecision(3))

describe('GET /v2/key_transactions', () => {
  it('answers the v2 record with summaries computed from the key transaction’s timeslices', async () => {
    const h = harness()
    const kt = h.dataset.resources.keyTransactions.find((k) => k.id === 2247001)!
    const { res, body } = await list(h, '/v2/key_transactions.json?filter[ids]=2247001')
    expect(res.headers.get('link')).toBeNull()
    expectStrictV2(body as unknown as Record<string, unknown>, 'key_transactions')
    const [record] = body.key_transactions
    expect(Object.keys(record!)).toEqual([
      'id',
      'name',
      'transaction_name',
      'health_status',
      'reporting',
      'last_reported_at',
      'application_summary',
      'end_user_summary',
      'links',
    ])
    const expected = truth(h, kt.guid, kt.accountId)
    expect(record).toMatchObject({
      id: 2247001,
      name: 'Checkout: place order',
      transaction_name: 'CartController/checkout', // display name: test/key-transactions/fidelity.test.ts
      health_status: 'red',
      reporting: true,
      // its application's newest Transaction event: 11:59 at the agent's harvest second
      // (simulator/data/apm/harvest.ts), not the minute's end
      last_reported_at: iso(kt.app.lastReportedAt + harvestOffsetMs(kt.app)),
      links: { application: 9045822 },
    })
    expect(record!.application_summary).toEqual({
      response_time: sig3(expected.responseMs),
      throughput: sig3(expected.calls / 10),
      error_rate: record!.application_summary!['error_rate'],
      apdex_target: kt.apdexTarget,
      apdex_score: Math.round(expected.apdex * 100) / 100, // apdex: 2 decimals (src/core/numbers.ts round2)
    })
    expect(record!.application_summary!['error_rate']).toBeGreaterThan(0)
    expect(record!.end_user_summary!['apdex_target']).toBe(7)
    expect((await h.get('/v2/key_transactions.json')).status).toBe(200)
    expect(body.key_transactions).toHaveLength(1)
    // The summary NRQL reads the key transaction's own GUID over the last 10 whole minutes.
    const nrql = h.sim.stats().queries.find((q) => q.includes('FACET entity.guid'))!
    expect(nrql).toContain(`entity.guid IN ('${kt.guid}')`)
    expect(nrql).toContain(
      `SINCE ${Date.parse('2026-11-20T11:50:00Z')} UNTIL ${Date.parse('2026-11-20T12:00:00Z')}`
    )
  })

  it('matches the golden JSON and XML bodies of a name filter', async () => {
    const h = harness()
    const json = await h.get('/v2/key_transactions.json?filter[name]=place+order')
    const text = await json.text()
    // the key's own account, 1000001 (src/entities/accounts.ts listAccount): not 2247043, the
    // staging key transaction of 1000002, which X-Account-Id lists
    expect(JSON.parse(text).key_transactions.map((k: KeyTransaction) => k.id)).toEqual([2247001])
    const staging = await list(h, '/v2/key_transactions.json?filter[name]=place+order', {
      headers: { 'X-Account-Id': '1000002' },
    })
    expect(staging.body.key_transactions.map((k) => k.id)).toEqual([2247043])
    expectGolden('key-transactions-place-order.json', pretty(text))
    const xml = await h.get('/v2/key_transactions.xml?filter[name]=place+order')
    expect(xml.headers.get('content-type')).toBe('application/xml')
    const body = await xml.text()
    expect(body).toContain(
      '<key_transactions_response>\n  <key_transactions>\n    <key_transaction>'
    )
    expectGolden('key-transactions-place-order.xml', body)
  })

  it('matches filter[name] as a plain substring: % and _ are characters', async () => {
    const h = harness()
    expect(
      (await list(h, '/v2/key_transactions.json?filter[name]=%25')).body.key_transactions
    ).toEqual([])
    const { body } = await list(h, '/v2/key_transactions.json?filter[name]=PAYMENTS')
    expect(body.key_transactions.map((k) => k.name)).toEqual(['Payments: authorize'])
  })

  it('walks every key transaction of the key’s own account through Link headers alone, one request a page once warm', async () => {
    const h = harness()
    const expected = h.dataset.resources.keyTransactions
      .filter((k) => k.accountId === 1000001)
      .map((k) => k.id)
      .sort()
    expect(expected.length).toBeGreaterThan(200)
    const walk = async () => {
      const seen: number[] = []
      const perPage: number[] = []
      let url: string | undefined = 'https://v2bridge.test/v2/key_transactions.json'
      while (url) {
        const before = upstream(h)
        const { res, body } = await list(h, url)
        perPage.push(upstream(h) - before)
        seen.push(...body.key_transactions.map((k) => k.id))
        url = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1]
      }
      return { seen, perPage }
    }
    const cold = await walk()
    expect(cold.seen.sort()).toEqual(expected)
    // cold, a page is the search, the details with the summaries, then when the applications the
    // details name last reported (test/key-transactions/fidelity.test.ts); page 1 also learns the
    // key's own account (its user, then two pages of that user's keys)
    expect(cold.perPage).toEqual([6, 3])
    const warm = await walk()
    expect(warm.seen.sort()).toEqual(expected)
    expect(warm.perPage).toEqual([1, 1])
    const last = await list(h, '/v2/key_transactions.json?page=2')
    expect(last.res.headers.get('link')).toContain('rel="first"')
    expect((await list(h, '/v2/key_transactions.json?page=9')).body.key_transactions).toEqual([])
  })

  it('shows only the accounts the key sees', async () => {
    const h = harness()
    const { body } = await list(h, '/v2/key_transactions.json', { key: DEMO_KEYS.one })
    expect(body.key_transactions.map((k) => k.id)).toEqual([2247043])
    expect((await h.get('/v2/key_transactions/2247001.json', { key: DEMO_KEYS.one })).status).toBe(
      404
    )
  })

  it('reads filter[ids]=abc as Rails reads an ID (to_i: 0, an empty list) and 401 without a key', async () => {
    const h = harness()
    const res = await h.get('/v2/key_transactions.json?filter[ids]=abc')
    expect(res.status).toBe(200)
    expect(((await res.json()) as { key_transactions: unknown[] }).key_transactions).toEqual([])
    expect((await h.get('/v2/key_transactions.json', { key: null })).status).toBe(401)
  })
})

describe('GET /v2/key_transactions/{id}', () => {
  it('shows one key transaction with the links template, JSON and XML', async () => {
    const h = harness()
    const res = await h.get('/v2/key_transactions/2247001.json')
    expect(res.status).toBe(200)
    const body = (await res.json()) as { key_transaction: KeyTransaction; links: unknown }
    expect(Object.keys(body)).toEqual(['key_transaction', 'links'])
    expect(body.links).toEqual({
      'key_transaction.application': '/v2/applications/{application_id}',
    })
    const listed = (await list(h, '/v2/key_transactions.json?filter[ids]=2247001')).body
    expect(body.key_transaction).toEqual(listed.key_transactions[0])
    const xml = await (await h.get('/v2/key_transactions/2247001.xml')).text()
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<key_transaction_response>\n  <key_transaction>\n    <id>2247001<\/id>/
    )
    expect(xml).toContain('<apdex_target>7.0</apdex_target>')
  })

  it('answers a key transaction that stopped reporting gray, without summaries', async () => {
    const h = harness()
    const body = (await (await h.get('/v2/key_transactions/2247036.json')).json()) as {
      key_transaction: KeyTransaction
    }
    expect(body.key_transaction).toEqual({
      id: 2247036,
      name: 'Inventory: reserve',
      transaction_name: 'POST /inventory/reserve',
      health_status: 'gray',
      reporting: false,
      links: { application: 9045874 },
    })
  })

  it('answers 404 in v2 shape for unknown and malformed IDs', async () => {
    const h = harness()
    for (const path of ['/v2/key_transactions/1.json', '/v2/key_transactions/abc.json']) {
      const res = await h.get(path)
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({
        error: { title: 'No key transaction found with the given ID' },
      })
    }
    const xml = await h.get('/v2/key_transactions/1.xml')
    expect(await xml.text()).toContain('<title>No key transaction found with the given ID</title>')
  })

  it('computes the GUID of a pinned account: two requests cold, one warm, and 404 for an account the key cannot see', async () => {
    const h = harness({ ACCOUNT_ID: '1000001' })
    let before = upstream(h)
    expect((await h.get('/v2/key_transactions/2247001.json')).status).toBe(200)
    // the entity names its application; a second request reads when that application last reported
    expect(upstream(h) - before).toBe(2)
    before = upstream(h)
    expect((await h.get('/v2/key_transactions/2247001.json')).status).toBe(200)
    expect(upstream(h) - before).toBe(1)
    const other = await h.get('/v2/key_transactions/2247001.json', { key: DEMO_KEYS.one })
    expect(other.status).toBe(404)
  })
})

// issue 37 item 1: v2's list and show carry the same summary; a list never answers a minute-old one.
describe('key transaction summaries in lists', () => {
  afterAll(() => void vi.setSystemTime(now))

  it('answers a list item as fresh as the show of the same minute', async () => {
    const h = harness()
    const path = '/v2/key_transactions.json?filter[ids]=2247001'
    vi.setSystemTime(Date.parse('2026-11-20T12:10:50.000Z'))
    expect((await h.get(path)).status).toBe(200)
    vi.setSystemTime(Date.parse('2026-11-20T12:11:10.000Z'))
    const listed = ((await (await h.get(path)).json()) as { key_transactions: object[] })
      .key_transactions
    const shown = (
      (await (await h.get('/v2/key_transactions/2247001.json')).json()) as {
        key_transaction: object
      }
    ).key_transaction
    expect(listed).toEqual([shown])
  })
})
