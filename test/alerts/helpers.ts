/** v2bridge in front of the simulator, recording each GraphQL request it sends (query + variables). */
import { createApp } from '../../src/app'
import { parseConfig, type ConfigInput } from '../../src/core/config'
import { alertsOf, apmGuid, DEMO_KEYS, createSimulator, type AlertsState } from '../../simulator'

export interface Sent {
  query: string
  variables: Record<string, unknown>
}

export function alertsHarness(settings: ConfigInput = {}) {
  const sim = createSimulator()
  const sent: Sent[] = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    sent.push(JSON.parse(await req.clone().text()) as Sent)
    return sim.fetch(req)
  }) as typeof globalThis.fetch
  const app = createApp({
    config: parseConfig({
      NERDGRAPH_URL: 'http://simulator.test/graphql',
      ALLOW_HTTP: 'true',
      ...settings,
    }),
    fetch,
  })
  const call = (path: string, init: RequestInit & { key?: string } = {}) => {
    const { key = DEMO_KEYS.all, headers, ...rest } = init
    const h = new Headers(headers)
    h.set('X-Api-Key', key)
    return app.request(path, { ...rest, headers: h })
  }
  /** The operation names sent since `from`. */
  const operations = (from = 0) =>
    sent.slice(from).map((s) => /^\s*(?:query|mutation)\s+(\w+)/.exec(s.query)?.[1])
  return { sim, app, call, sent, operations, alerts: alertsOf(sim.dataset) }
}

export { DEMO_KEYS }

/**
 * Adds `n` closed issues of one incident each to account 1000001 (condition 7101101 of policy
 * 5101101, application 9045822), one an hour from `hoursAgo` back, so lists have more than one
 * v2 page (200 items).
 */
export function addIssues(alerts: AlertsState, n: number, hoursAgo = 1) {
  const anchor = Math.floor(Date.now() / 60_000) * 60_000
  for (let i = 0; i < n; i++) {
    const createdAt = anchor - (hoursAgo + i) * 3_600_000 - 30 * 60_000
    const issueId = `00000000-0000-4000-a000-${String(i).padStart(12, '0')}`
    const incidentId = String(39_000_000 + i)
    const common = { accountId: 1000001, policyId: 5101101, conditionId: 7101101 }
    alerts.issues.push({
      ...common,
      issueId,
      priority: 'CRITICAL',
      createdAt,
      closedAt: createdAt + 600_000,
      acknowledgedAt: null,
      acknowledgedBy: null,
      closedBy: 'system',
      incidentIds: [incidentId],
    })
    alerts.incidents.push({
      ...common,
      incidentId,
      issueId,
      title: `Added ${i}`,
      priority: 'CRITICAL',
      entityGuid: apmGuid(1000001, 9045822),
      entityName: 'Added app',
      createdAt,
      closedAt: createdAt + 600_000,
    })
  }
}
