import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { incidentId } from '../../src/resources/alerts/ids'
import { addIssues, alertsHarness, DEMO_KEYS } from './helpers'

const now = Date.parse('2026-11-20T12:00:30.000Z')
beforeAll(() => void vi.useFakeTimers({ toFake: ['Date'], now }))
afterAll(() => void vi.useRealTimers())

interface Incident {
  id: number
  opened_at: number
  closed_at?: number
  incident_preference: string
  links: { violations?: number[]; policy_id: number }
}

describe('GET /v2/alerts_incidents', () => {
  it('lists open AI issues as v2 incidents with minted IDs, epoch-ms times and policy preferences', async () => {
    const h = alertsHarness()
    const res = await h.call('/v2/alerts_incidents.json?only_open=true')
    expect(res.status).toBe(200)
    const { incidents } = (await res.json()) as { incidents: Incident[] }
    // The page reaches back past the newest 30-day window: the issue open for 45 days comes last
    // (test/alerts/history.test.ts).
    const open = h.alerts.issues
      .filter((i) => i.accountId === 1000001 && i.closedAt === null)
      .sort((a, b) => b.createdAt - a.createdAt)
    expect(incidents).toEqual(
      open.map((issue) => ({
        id: incidentId(issue.issueId),
        opened_at: issue.createdAt,
        incident_preference: h.alerts.policies.find((p) => p.id === issue.policyId)!
          .incidentPreference,
        links: { violations: issue.incidentIds.map(Number), policy_id: issue.policyId },
      }))
    )
    expect(incidents[0]).toEqual({
      id: incidentId(open[0]!.issueId),
      opened_at: now - 2 * 3_600_000 - 30_000,
      incident_preference: 'PER_POLICY',
      links: { violations: [31000036], policy_id: 5101103 },
    })
    expect(Object.keys(incidents[0]!)).toEqual(['id', 'opened_at', 'incident_preference', 'links'])
    const sent = h.sent[3]! // then a look into the window before, which holds the next page
    expect(sent.variables).toEqual({
      accountId: 1000001,
      cursor: null,
      filter: { states: ['CREATED', 'ACTIVATED'] },
      timeWindow: {
        startTime: now - 30_000 + 60_000 - 30 * 86_400_000,
        endTime: now - 30_000 + 60_000,
      },
    })
  })

  it('gives closed incidents a closed_at and drops links.violations with exclude_violations', async () => {
    const h = alertsHarness()
    const res = await h.call('/v2/alerts_incidents.json?exclude_violations=true')
    const { incidents } = (await res.json()) as { incidents: Incident[] }
    expect(incidents).toHaveLength(h.alerts.issues.filter((i) => i.accountId === 1000001).length)
    const closed = incidents.filter((i) => i.closed_at !== undefined)
    expect(closed.length).toBeGreaterThan(0)
    for (const i of closed) expect(i.closed_at).toBeGreaterThan(i.opened_at)
    for (const i of incidents) expect(Object.keys(i.links)).toEqual(['policy_id'])
    expect(h.sent.at(-1)!.variables['filter']).toBeNull()
  })

  it('pages 200 incidents a page across NerdGraph pages and time windows, and answers an empty page past the end', async () => {
    const h = alertsHarness()
    addIssues(h.alerts, 300) // 300 more in the newest 12 days and the rest of the newest window
    const all = h.alerts.issues.filter((i) => i.accountId === 1000001)
    const first = await h.call('/v2/alerts_incidents.json')
    expect(first.headers.get('link')).toBe(
      '<http://localhost/v2/alerts_incidents.json?page=2>; rel="next"'
    )
    const second = await h.call('/v2/alerts_incidents.json?page=2')
    // No rel="last": NerdGraph's aiIssues give no count (docs/differences.md).
    expect(second.headers.get('link')).toBe(
      '<http://localhost/v2/alerts_incidents.json?page=1>; rel="first", <http://localhost/v2/alerts_incidents.json?page=1>; rel="prev"'
    )
    const pages = [
      ((await first.json()) as { incidents: Incident[] }).incidents,
      ((await second.json()) as { incidents: Incident[] }).incidents,
    ]
    expect(pages.map((p) => p.length)).toEqual([200, all.length - 200])
    const ids = pages.flat().map((i) => i.id)
    expect(ids).toHaveLength(all.length) // each issue once, in the window it was created in
    expect(new Set(ids)).toEqual(new Set(all.map((i) => incidentId(i.issueId))))
    const before = h.sent.length
    const third = await h.call('/v2/alerts_incidents.json?page=3')
    expect(await third.json()).toEqual({ incidents: [] })
    expect(h.sent.length).toBe(before) // the cached cursors say page 3 is past the end
  })

  it('renders XML with incident items and integer violation IDs', async () => {
    const h = alertsHarness()
    const res = await h.call('/v2/alerts_incidents.xml?only_open=true')
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/)
    const xml = await res.text()
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<incidents_response>\n  <incidents>\n    <incident>\n      <id>\d+<\/id>/
    )
    expect(xml).toContain(
      '<violations>\n          <violation>31000036</violation>\n        </violations>\n        <policy_id>5101103</policy_id>'
    )
  })

  it("reads the pinned account and a bad page as Rails' to_i does (the first page)", async () => {
    const h = alertsHarness({ ACCOUNT_ID: '1000002' })
    const res = await h.call('/v2/alerts_incidents.json', { key: DEMO_KEYS.one })
    const { incidents } = (await res.json()) as { incidents: Incident[] }
    expect(incidents.map((i) => i.links.policy_id)).toEqual([5201101])
    const bad = await h.call('/v2/alerts_incidents.json?page=x', { key: DEMO_KEYS.one })
    expect(bad.status).toBe(200)
    expect(((await bad.json()) as { incidents: Incident[] }).incidents).toEqual(incidents)
  })
})

describe('PUT /v2/alerts_incidents/{id}/acknowledge and /close', () => {
  it('acknowledges through aiIssuesAckIssue and answers the incident', async () => {
    const h = alertsHarness()
    const issue = h.alerts.issues.find((i) => i.policyId === 5101103 && i.closedAt === null)!
    const id = incidentId(issue.issueId)
    const res = await h.call(`/v2/alerts_incidents/${id}/acknowledge.json`, { method: 'PUT' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      incident: {
        id,
        opened_at: issue.createdAt,
        incident_preference: 'PER_POLICY',
        links: { violations: [31000036], policy_id: 5101103 },
      },
    })
    expect(issue.acknowledgedAt).toBe(now)
    expect(issue.closedAt).toBeNull()
    const ack = h.sent.find((s) => s.query.includes('aiIssuesAckIssue'))!
    expect(ack.variables).toEqual({ accountId: 1000001, issueId: issue.issueId })
  })

  it('closes through aiIssuesResolveIssue; the incident then has closed_at and stops being open', async () => {
    const h = alertsHarness()
    const list = await h.call('/v2/alerts_incidents.json?only_open=true')
    const { incidents } = (await list.json()) as { incidents: Incident[] }
    const target = incidents[1]!
    const from = h.sent.length
    const res = await h.call(`/v2/alerts_incidents/${target.id}/close.xml`, { method: 'PUT' })
    expect(res.status).toBe(200)
    expect(h.operations(from)).toEqual(['ResolveIssue', 'AlertIssues']) // the ID came from the list
    const xml = await res.text()
    expect(xml).toContain(`<incident_response>\n  <incident>\n    <id>${target.id}</id>`)
    expect(xml).toContain(`<closed_at>${now}</closed_at>`)
    const after = await h.call('/v2/alerts_incidents.json?only_open=true')
    const ids = ((await after.json()) as { incidents: Incident[] }).incidents.map((i) => i.id)
    expect(ids).toEqual(incidents.filter((i) => i.id !== target.id).map((i) => i.id))
    const again = await h.call(`/v2/alerts_incidents/${target.id}/close.json`, { method: 'PUT' })
    expect(again.status).toBe(422)
    expect(await again.json()).toEqual({ error: { title: 'Validation exception occured' } })
  })

  it('answers 404 for an ID no issue has, and 405 for GET', async () => {
    const h = alertsHarness()
    const res = await h.call('/v2/alerts_incidents/12345/acknowledge.json', { method: 'PUT' })
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ error: { title: 'No Incident found with the given ID' } })
    // The walk reads back to the history kept (a year) and stops there.
    const walked = h.operations().slice(3) // after the key's user and two pages of its keys
    expect(new Set(walked)).toEqual(new Set(['AlertIssues']))
    const windows = h.sent.slice(3).map((s) => s.variables['timeWindow'] as { startTime: number })
    const end = now - 30_000 + 60_000
    expect(Math.min(...windows.map((w) => w.startTime))).toBe(end - 366 * 86_400_000)
    const get = await h.call('/v2/alerts_incidents/12345/close.json')
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('PUT')
  })
})
