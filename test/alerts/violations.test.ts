import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { incidentId } from '../../src/resources/alerts/ids'
import { addIssues, alertsHarness } from './helpers'
import { apmGuid } from '../../simulator'

const now = Date.parse('2026-11-20T12:00:30.000Z')
beforeAll(() => void vi.useFakeTimers({ toFake: ['Date'], now }))
afterAll(() => void vi.useRealTimers())

interface Violation {
  id: number
  duration: number
  opened_at: number
  closed_at?: number
  priority: string
  links: Record<string, number>
}

describe('GET /v2/alerts_violations', () => {
  it('maps open AI incidents to v2 violations with names from their issues', async () => {
    const h = alertsHarness()
    const res = await h.call('/v2/alerts_violations.json?only_open=true')
    expect(res.status).toBe(200)
    expect(res.headers.get('link')).toBeNull()
    const body = (await res.json()) as { violations: Violation[] }
    const issue = h.alerts.issues.find((i) => i.incidentIds.includes('31000036'))!
    expect(body.violations[0]).toEqual({
      id: 31000036,
      label: "Billing queue time on 'Billing Portal (dotnet)'",
      duration: 2 * 3600 + 30,
      policy_name: 'Billing Portal',
      condition_name: 'Billing queue time',
      priority: 'Warning',
      opened_at: now - 30_000 - 2 * 3_600_000,
      entity: {
        product: 'Apm',
        type: 'Application',
        group_id: 9045893,
        id: 9045893,
        name: 'Billing Portal (dotnet)',
      },
      links: { policy_id: 5101103, condition_id: 7101301, incident_id: incidentId(issue.issueId) },
    })
    // The page reaches back past the newest 30-day window to the violation open for 45 days
    // (test/alerts/history.test.ts).
    const old = h.alerts.incidents.find(
      (i) => i.closedAt === null && i.createdAt < now - 40 * 86_400_000
    )!
    expect(body.violations.map((v) => v.id)).toEqual([
      31000036,
      31000015,
      31000008,
      31000022,
      31000029,
      Number(old.incidentId),
    ])
    expect(body.violations.find((v) => v.id === 31000015)!.priority).toBe('Critical')
    // One request per 30-day window back to the year kept, then the issues that name them.
    const ops = h.operations()
    expect(ops.slice(0, 3)).toEqual(['KeyCheck', 'KeyAccount', 'KeyAccount'])
    expect(ops.slice(3, 16)).toEqual(Array(13).fill('AlertIncidents'))
    expect(new Set(ops.slice(16))).toEqual(new Set(['AlertIssues']))
    expect(h.sent[3]!.variables['filter']).toEqual({ states: ['CREATED'] })
    expect(h.sent[16]!.variables['filter']).toEqual({
      conditionIds: [7101101, 7101102, 7101201, 7101301],
      entityGuids: expect.arrayContaining([apmGuid(1000001, 9045822)]),
    })
  })

  it('sends start_date and end_date as the time window and counts duration to closed_at', async () => {
    const h = alertsHarness()
    const start = '2026-11-01T00:00:00Z'
    const end = '2026-11-10 00:00:00 00:00' // an unencoded "+00:00" arrives as a space
    const res = await h.call(`/v2/alerts_violations.json?start_date=${start}&end_date=${end}`)
    const { violations } = (await res.json()) as { violations: Violation[] }
    expect(h.sent[3]!.variables['timeWindow']).toEqual({
      startTime: Date.parse(start),
      endTime: Date.parse('2026-11-10T00:00:00Z'),
    })
    expect(violations.length).toBeGreaterThan(0)
    for (const v of violations) {
      expect(v.duration).toBe(Math.floor((v.closed_at! - v.opened_at) / 1000))
      expect(v.links['incident_id']).toEqual(expect.any(Number))
    }
  })

  it('pages 200 violations a page with next, first and prev links but never rel="last"', async () => {
    const h = alertsHarness()
    addIssues(h.alerts, 300)
    const first = await h.call('/v2/alerts_violations.json')
    expect(first.headers.get('link')).toBe(
      '<http://localhost/v2/alerts_violations.json?page=2>; rel="next"'
    )
    expect(((await first.json()) as { violations: Violation[] }).violations).toHaveLength(200)
    const second = await h.call('/v2/alerts_violations.json?page=2')
    // New Relic docs "Pagination for API output": alerts_violations never sends rel="last".
    expect(second.headers.get('link')).toBe(
      '<http://localhost/v2/alerts_violations.json?page=1>; rel="first", <http://localhost/v2/alerts_violations.json?page=1>; rel="prev"'
    )
    const all = h.alerts.incidents.filter((i) => i.accountId === 1000001)
    expect(((await second.json()) as { violations: Violation[] }).violations).toHaveLength(
      all.length - 200
    )
  })

  it('answers 422 for an unreadable date and for start after end', async () => {
    const h = alertsHarness()
    const bad = await h.call('/v2/alerts_violations.json?start_date=yesterday')
    expect(bad.status).toBe(422)
    expect(await bad.json()).toEqual({ error: { title: "Invalid 'start_date' time" } })
    const order = await h.call(
      '/v2/alerts_violations.json?start_date=2026-11-10T00:00:00Z&end_date=2026-11-01T00:00:00Z'
    )
    expect(order.status).toBe(422)
  })

  it('renders XML violations with the entity and links', async () => {
    const h = alertsHarness()
    const xml = await (await h.call('/v2/alerts_violations.xml?only_open=true')).text()
    expect(xml).toContain(
      '<violations_response>\n  <violations>\n    <violation>\n      <id>31000036</id>'
    )
    expect(xml).toContain(
      '<entity>\n        <product>Apm</product>\n        <type>Application</type>'
    )
  })
})

describe('GET /v2/alerts_events', () => {
  it('emits VIOLATION_OPEN and VIOLATION_CLOSE events from incidents, newest first', async () => {
    const h = alertsHarness()
    const res = await h.call('/v2/alerts_events.json?filter[entity_id]=9045893')
    expect(res.status).toBe(200)
    const { recent_events: events } = (await res.json()) as {
      recent_events: Record<string, unknown>[]
    }
    const issue = h.alerts.issues.find((i) => i.incidentIds.includes('31000036'))!
    // The newest issue opens with its violation, both at its createdAt: INCIDENT_OPEN and
    // VIOLATION_OPEN, described "<policy> (<entity> violated <condition>)" as client-go's recorded
    // event "Some Alert Policy (Your Application Name violated Goroutines min count)"
    // (newrelic-client-go pkg/alerts events_test.go).
    const opened = {
      product: 'APM',
      entity_type: 'Application',
      entity_group_id: 9045893,
      entity_id: 9045893,
      priority: 'warning',
      description: 'Billing Portal (Billing Portal (dotnet) violated Billing queue time)',
      timestamp: now - 30_000 - 2 * 3_600_000,
      incident_id: incidentId(issue.issueId),
    }
    expect(events.slice(0, 2)).toEqual([
      { id: expect.any(Number), event_type: 'INCIDENT_OPEN', ...opened },
      { id: expect.any(Number), event_type: 'VIOLATION_OPEN', ...opened },
    ])
    // Newest first, then by ID (the order every page follows, so pages never overlap).
    const order = events.map((e) => [e['timestamp'] as number, e['id'] as number])
    expect(order).toEqual([...order].sort((a, b) => b[0]! - a[0]! || b[1]! - a[1]!))
    expect(new Set(events.map((e) => e['entity_id']))).toEqual(new Set([9045893]))
    expect(events.some((e) => e['event_type'] === 'VIOLATION_CLOSE')).toBe(true)
  })

  it('filters by event type, product and incident', async () => {
    const h = alertsHarness()
    const issue = h.alerts.issues.find((i) => i.incidentIds.includes('31000008'))!
    const id = incidentId(issue.issueId)
    const res = await h.call(
      `/v2/alerts_events.json?filter[event_type]=VIOLATION_OPEN&filter[product]=apm&filter[incident_id]=${id}`
    )
    const { recent_events: events } = (await res.json()) as {
      recent_events: { incident_id: number; event_type: string }[]
    }
    expect(events).toHaveLength(2)
    for (const e of events)
      expect(e).toMatchObject({ incident_id: id, event_type: 'VIOLATION_OPEN' })
    // DEPLOYMENT events come from change tracking (test/alerts/history.test.ts).
    const deployments = await h.call('/v2/alerts_events.json?filter[event_type]=DEPLOYMENT')
    const { recent_events: deployed } = (await deployments.json()) as {
      recent_events: { event_type: string }[]
    }
    for (const e of deployed) expect(e.event_type).toBe('DEPLOYMENT')
  })
})
