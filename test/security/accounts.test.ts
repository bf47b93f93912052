/**
 * The pinned account (issue 12, items 5–7): one header rule on every route, 404 on every route for
 * an application outside the pinned account, and caches that never carry one account's answer to
 * another.
 */
import { describe, expect, it } from 'vitest'
import { DEMO_KEYS, harness } from '../helpers/harness'

const app = 9045822 // Demo Production (1000001)

async function hostId(): Promise<number> {
  const res = await harness().get(`/v2/applications/${app}/hosts.json`)
  return ((await res.json()) as { application_hosts: { id: number }[] }).application_hosts[0]!.id
}

const routes = (host: number) => [
  `/v2/applications/${app}`,
  `/v2/applications/${app}/hosts`,
  `/v2/applications/${app}/instances`,
  `/v2/applications/${app}/metrics`,
  `/v2/applications/${app}/metrics/data?names[]=HttpDispatcher`,
  `/v2/applications/${app}/hosts/${host}/metrics`,
  `/v2/applications/${app}/hosts/${host}/metrics/data?names[]=HttpDispatcher`,
]

const withFormat = (path: string, format: 'json' | 'xml') => path.replace(/(\?|$)/, `.${format}$1`)

describe('an application outside the pinned account', () => {
  it('answers 404 "No Application found" on every route, JSON and XML', async () => {
    const { get } = harness()
    for (const path of routes(await hostId())) {
      for (const format of ['json', 'xml'] as const) {
        const res = await get(withFormat(path, format), { headers: { 'X-Account-Id': '1000002' } })
        expect(res.status, path).toBe(404)
        expect(await res.text(), path).toContain('No Application found with the given ID')
      }
    }
  })

  it('does not change what the same key gets for the right account afterwards', async () => {
    const { get } = harness()
    const host = await hostId()
    const path = `/v2/applications/${app}/hosts/${host}/metrics.json`
    const wrong = await get(path, { headers: { 'X-Account-Id': '1000002' } })
    expect(wrong.status).toBe(404)
    const right = await get(path, { headers: { 'X-Account-Id': '1000001' } })
    expect(right.status).toBe(200)
    const unpinned = await get(path)
    expect(unpinned.status).toBe(200)
  })

  it('confirms the application only when its answer is empty', async () => {
    const { get, log } = harness({ ACCOUNT_ID: '1000001' })
    const data = (id: number) =>
      `/v2/applications/${id}/metrics/data.json?summarize=true&names[]=HttpDispatcher`
    expect((await get(data(app))).status).toBe(200)
    expect(log.at(-1)).toMatchObject({ upstreamRequests: 1 })
    const unknown = await get(data(1))
    expect(unknown.status).toBe(404)
    expect(log.at(-1)).toMatchObject({ upstreamRequests: 2 })
  })
})

describe('the account header', () => {
  it('reads repeated or comma-joined copies of one account ID as that account', async () => {
    const { app: bridge } = harness()
    const headers = new Headers({ 'X-Api-Key': DEMO_KEYS.all })
    headers.append('X-Account-Id', '1000002')
    headers.append('X-Account-Id', ' 1000002')
    headers.append('NewRelic-Account-Id', '1000002')
    const res = await bridge.request('/v2/applications.json?filter[name]=Storefront', { headers })
    expect(res.status).toBe(200)
    const names = ((await res.json()) as { applications: { name: string }[] }).applications
    expect(names.map((a) => a.name)).toEqual(['Storefront (staging)'])
  })

  it('answers 422 on every route to different accounts, or to anything but an account ID', async () => {
    const { get, sim } = harness()
    const cases: [Record<string, string>, string][] = [
      [
        { 'X-Account-Id': '1000001, 1000002' },
        'Conflicting account ID headers: send one account ID',
      ],
      [
        { 'X-Account-Id': '1000001', 'NewRelic-Account-Id': '1000002' },
        'Conflicting account ID headers: send one account ID',
      ],
      [{ 'X-Account-Id': 'abc' }, 'Invalid account ID header: expected one account ID'],
      [{ 'X-Account-Id': '0' }, 'Invalid account ID header: expected one account ID'],
      [{ 'NewRelic-Account-Id': '' }, 'Invalid account ID header: expected one account ID'],
    ]
    for (const [headers, title] of cases) {
      for (const path of ['/v2/applications', ...routes(1)]) {
        const res = await get(withFormat(path, 'json'), { headers })
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(422)
        expect(await res.json()).toEqual({ error: { title } })
      }
    }
    expect(sim.stats().graphqlRequests).toBe(0)
  })

  it('lists nothing, on every page, from an account the key cannot see', async () => {
    const { get } = harness()
    for (const page of ['1', '2', '3']) {
      const res = await get(`/v2/applications.json?page=${page}`, {
        key: DEMO_KEYS.one,
        headers: { 'X-Account-Id': '1000001' },
      })
      expect(res.status, page).toBe(200)
      expect(((await res.json()) as { applications: unknown[] }).applications).toEqual([])
    }
    const show = await get(`/v2/applications/${app}.json`, {
      key: DEMO_KEYS.one,
      headers: { 'X-Account-Id': '1000001' },
    })
    expect(show.status).toBe(404)
  })
})
