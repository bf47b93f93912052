import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { harvestOffsetMs } from '../../simulator'
import { harness } from '../helpers/harness'
import { transactionName } from '../../src/resources/key-transactions/reshape'
import { presenceMetricNames } from '../../mappings/topology'

const now = Date.parse('2026-11-20T12:00:30.000Z')
beforeAll(() => void vi.useFakeTimers({ toFake: ['Date'], now }))
afterAll(() => void vi.useRealTimers())

interface KeyTransaction {
  id: number
  transaction_name: string
  reporting: boolean
  last_reported_at?: string | null
}

async function all(h: ReturnType<typeof harness>): Promise<KeyTransaction[]> {
  const out: KeyTransaction[] = []
  let url: string | undefined = 'https://v2bridge.test/v2/key_transactions.json'
  while (url) {
    const res = await h.get(url)
    expect(res.status).toBe(200)
    out.push(...((await res.json()) as { key_transactions: KeyTransaction[] }).key_transactions)
    url = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1]
  }
  return out
}

describe('key transaction transaction_name', () => {
  it('is the display name: the metric name without WebTransaction/<category>/', () => {
    // newrelic-client-go pkg/apm/key_transactions_test.go: "transaction_name": "get /"
    expect(transactionName('WebTransaction/Go/get /')).toBe('get /')
    // New Relic docs "Summary data examples (v2)": "transaction_name": "/ws/Reaction"
    expect(transactionName('WebTransaction/SpringController//ws/Reaction')).toBe('/ws/Reaction')
    expect(transactionName('OtherTransaction/Custom/Login Page')).toBe('Login Page')
    expect(transactionName('WebTransaction/Uri')).toBe('WebTransaction/Uri')
  })

  it('is answered so by the list and the show', async () => {
    const h = harness()
    const show = await h.get('/v2/key_transactions/2247001.json')
    const body = (await show.json()) as { key_transaction: KeyTransaction }
    expect(body.key_transaction.transaction_name).toBe('CartController/checkout')
  })
})

describe('key transaction last_reported_at', () => {
  it('is on every reporting record, even without traffic in the 10 minutes, and never null', async () => {
    // newrelic-client-go pkg/apm/key_transactions_test.go: every reporting key transaction carries
    // "last_reported_at"; statianzo/hubot-newrelic2 fixture: a non-reporting record has none.
    const h = harness()
    const records = await all(h)
    const reporting = records.filter((k) => k.reporting)
    expect(reporting.length).toBeGreaterThan(100)
    for (const k of reporting) {
      expect(k.last_reported_at, String(k.id)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/)
    }
    for (const k of records.filter((r) => !r.reporting)) expect('last_reported_at' in k).toBe(false)
    expect(JSON.stringify(records)).not.toContain('null')

    // A quiet one (no timeslice in the 10 minutes): the time its application last reported, from
    // the application's rows of the last hour.
    const until = Math.floor(now / 60_000) * 60_000
    const quiet = reporting.filter((k) => {
      const kt = h.dataset.resources.keyTransactions.find((x) => x.id === k.id)!
      const since = until - 600_000
      const own = h.dataset.store.scan({
        accountId: kt.accountId,
        since,
        until,
        entityGuids: [kt.guid],
      })
      return ![...own].some((r) => r.entityGuid === kt.guid)
    })
    expect(quiet.length).toBeGreaterThan(0)
    for (const k of quiet) {
      const kt = h.dataset.resources.keyTransactions.find((x) => x.id === k.id)!
      const rows = [
        ...h.dataset.store.scan({
          accountId: kt.accountId,
          since: until - 3_600_000,
          until,
          entityGuids: [kt.app.guid],
          names: [...presenceMetricNames],
        }),
      ].filter((r) => r.entityGuid === kt.app.guid && r.scope === null)
      const last = Math.max(...rows.map((r) => r.timestamp))
      // its newest Transaction event when that minute had calls (at the agent's harvest second,
      // simulator/data/apm/harvest.ts), else the minute's start (src/entities/last-report.ts)
      const calls = rows.some(
        (r) =>
          r.timestamp === last && r.metricTimesliceName !== 'Memory/Physical' && r.value.count > 0
      )
      const reported = calls ? last + harvestOffsetMs(kt.app) : last
      expect(Date.parse(k.last_reported_at!), String(k.id)).toBe(Math.floor(reported / 1000) * 1000)
    }
    // The show answers the same time as the list.
    const one = quiet[0]!
    const show = (await (await h.get(`/v2/key_transactions/${one.id}.json`)).json()) as {
      key_transaction: KeyTransaction
    }
    expect(show.key_transaction.last_reported_at).toBe(one.last_reported_at)
  })

  it('is the time its application last reported, busy or quiet, on the list and the show', async () => {
    // v2 kept no timeslices of a key transaction's own, only its parent transaction's (New Relic
    // docs "Summary data examples (v2)"; contract v2-rest-api §2.9): its application's agent
    // reports it, so its last_reported_at is the application's.
    const h = harness()
    const records = (await all(h)).filter((k) => k.reporting)
    const byApp = new Map<number, string | undefined>()
    let url: string | undefined = 'https://v2bridge.test/v2/applications.json'
    while (url) {
      const res = await h.get(url)
      const body = (await res.json()) as {
        applications: { id: number; last_reported_at?: string }[]
      }
      for (const a of body.applications) byApp.set(a.id, a.last_reported_at)
      url = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1]
    }
    for (const k of records) {
      const app = h.dataset.resources.keyTransactions.find((x) => x.id === k.id)!.app.id
      expect(byApp.get(app), String(k.id)).toMatch(/\+00:00$/)
      expect(k.last_reported_at, String(k.id)).toBe(byApp.get(app))
    }
    const one = records.at(-1)!
    const show = (await (await h.get(`/v2/key_transactions/${one.id}.json`)).json()) as {
      key_transaction: KeyTransaction
    }
    expect(show.key_transaction.last_reported_at).toBe(one.last_reported_at)
  })
})
