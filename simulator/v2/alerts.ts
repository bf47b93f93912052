/**
 * @module simulator/v2/alerts — the stand-in's alerts reads, from the simulator's alerts state and
 * deployments, never through NerdGraph: incidents (a v2 incident is an AI issue, its violations are
 * the issue's incidents), violations, events and notification channels. Shapes and parameters:
 * the v2 API explorer (alerts_incidents, alerts_violations, alerts_events, alerts_channels) and
 * the newrelic-client-go pkg/alerts fixtures; New Relic docs "Pagination for API output":
 * violations have no `rel="last"`. Incident and event IDs are minted as ids.ts says (the one
 * convention shared with v2bridge, so lists match by `id`); violation IDs are the incidents' own
 * numeric IDs.
 */
import type { Hono } from 'hono'
import { alertsOf, type SimChannel, type SimIncident, type SimIssue } from '../data/alerts/state'
import { decodeGuid, type Dataset } from '../data/dataset'
import { parseTime } from './apm-time'
import { idsInOrder } from './ids'
import { answer, error, param, flag, page, params, type Body, type C, type Env } from './respond'

/** Alerts lists: 200 a page, as the other v2 lists (no size recorded for alerts lists). */
export const ALERTS_PAGE_SIZE = 200

/** The v2 incident ID of an AI issue (ids.ts: FNV-1a of `incident`, 0, the issue UUID). */
export const v2IncidentId = (issueId: string) => idsInOrder('incident', 0, [issueId]).get(issueId)!
/** The v2 event ID of one event: `<source>/<event type>`, the source a violation's ID,
 * `issue/<UUID>` or `deployment/<UUID>`. */
export const v2EventId = (source: string, type: string) =>
  idsInOrder('event', 0, [`${source}/${type}`]).get(`${source}/${type}`)!

const newestFirst = (a: { at: number; id: number }, b: { at: number; id: number }) =>
  b.at - a.at || b.id - a.id

/** Incidents, violations, events and channels (reads). */
export function alertsReadRoutes(app: Hono<Env>, dataset: Dataset): void {
  const state = () => alertsOf(dataset)
  const account = (c: C) => c.get('accountId')
  const policyOf = (id: number) => state().policies.find((p) => p.id === id)
  const conditionOf = (id: number) => state().conditions.find((x) => x.id === id)
  const issueOf = (incident: SimIncident) =>
    state().issues.find((i) => i.incidentIds.includes(incident.incidentId))
  const listed = async (
    c: C,
    key: string,
    rows: { at: number; id: number; body: Body }[],
    last = true
  ) => {
    const p = await params(c)
    const sorted = [...rows].sort(newestFirst).map((r) => r.body)
    const { items, headers } = page(c, p, sorted, ALERTS_PAGE_SIZE)
    if (!last && headers.Link) headers.Link = withoutLast(headers.Link)
    return answer(c, { [key]: items }, 200, headers)
  }

  app.on(['GET', 'POST'], '/alerts_incidents', async (c) => {
    const p = await params(c)
    const open = flag(p, 'only_open')
    const withViolations = !flag(p, 'exclude_violations')
    const issues = state().issues.filter(
      (i) => i.accountId === account(c) && (!open || i.closedAt === null)
    )
    return listed(
      c,
      'incidents',
      issues.map((i) => ({
        at: i.createdAt,
        id: v2IncidentId(i.issueId),
        body: incidentOut(dataset, i, withViolations),
      }))
    )
  })

  /** explorer ViolationResponseType fields (no recorded key order: id first, then the body's
   * fields, entity and links); `duration` whole seconds to the close or to now (nr1-command-center
   * computes with it); `priority` Critical or Warning; `closed_at` absent while open. */
  const violationOut = (v: SimIncident): Body => {
    const issue = issueOf(v)
    const app = decodeGuid(v.entityGuid)
    return {
      id: Number(v.incidentId),
      label: v.title,
      duration: Math.floor(((v.closedAt ?? dataset.now()) - v.createdAt) / 1000),
      policy_name: policyOf(v.policyId)?.name ?? '',
      condition_name: conditionOf(v.conditionId)?.name ?? '',
      priority: v.priority === 'CRITICAL' ? 'Critical' : 'Warning',
      opened_at: v.createdAt,
      ...(v.closedAt === null ? {} : { closed_at: v.closedAt }),
      entity: {
        product: 'Apm',
        type: 'Application',
        group_id: app?.appId ?? 0,
        id: app?.appId ?? 0,
        name: v.entityName,
      },
      links: {
        policy_id: v.policyId,
        condition_id: v.conditionId,
        ...(issue ? { incident_id: v2IncidentId(issue.issueId) } : {}),
      },
    }
  }
  app.on(['GET', 'POST'], '/alerts_violations', async (c) => {
    const p = await params(c)
    const bounds: (number | null)[] = []
    for (const name of ['start_date', 'end_date']) {
      const text = param(p, name)
      const at = text ? parseTime(text) : null
      if (text && at === null)
        return error(c, 422, 'Internal error occurred while trying to list violations')
      bounds.push(at)
    }
    const [start, end] = bounds
    const open = flag(p, 'only_open')
    // "created after" / "created before" this time (explorer): exact, exclusive bounds
    const found = state().incidents.filter(
      (v) =>
        v.accountId === account(c) &&
        (!open || v.closedAt === null) &&
        (start == null || v.createdAt > start) &&
        (end == null || v.createdAt < end)
    )
    return listed(
      c,
      'violations',
      found.map((v) => ({ at: v.createdAt, id: Number(v.incidentId), body: violationOut(v) })),
      false
    )
  })

  app.on(['GET', 'POST'], '/alerts_events', async (c) => {
    const p = await params(c)
    const events = eventsOf(dataset, account(c)).filter((e) => matches(e.body, p))
    return listed(c, 'recent_events', events)
  })

  app.get('/alerts_channels', async (c) => {
    const channels = state()
      .channels.filter((ch) => ch.accountId === account(c))
      .sort((a, b) => a.id - b.id)
      .map(channelOut)
    const p = await params(c)
    const { items, headers } = page(c, p, channels, ALERTS_PAGE_SIZE)
    return answer(c, { channels: items }, 200, headers)
  })
}

/** One incident (an AI issue): explorer IncidentResponseType; client-go incidents fixture key
 * order; `closed_at` absent while open; `exclude_violations=true` leaves `links.policy_id` only. */
export const incidentOut = (dataset: Dataset, issue: SimIssue, withViolations = true): Body => ({
  id: v2IncidentId(issue.issueId),
  opened_at: issue.createdAt,
  ...(issue.closedAt === null ? {} : { closed_at: issue.closedAt }),
  incident_preference:
    alertsOf(dataset).policies.find((p) => p.id === issue.policyId)?.incidentPreference ??
    'PER_POLICY',
  links: {
    ...(withViolations ? { violations: issue.incidentIds.map(Number) } : {}),
    policy_id: issue.policyId,
  },
})

/** Violations never carry `rel="last"` (docs "Pagination for API output"). */
export const withoutLast = (link: string) =>
  link
    .split(', ')
    .filter((part) => !part.endsWith('rel="last"'))
    .join(', ')

/**
 * Every alert event of an account, newest first (explorer RecentEventResponseType; key order of
 * newrelic-client-go pkg/alerts/events_test.go): `VIOLATION_OPEN` and `VIOLATION_CLOSE`
 * of each violation, `INCIDENT_OPEN` of each incident (described by its first violation; a type v2
 * answered [UNCONFIRMED: no public fixture found here]; no `INCIDENT_CLOSE`, never seen), and
 * `DEPLOYMENT` of each deployment of the account's applications. The dataset records no
 * notifications. Description: `<policy> (<entity> violated <condition>)`, the fixture's form.
 */
export function eventsOf(dataset: Dataset, accountId: number) {
  const s = alertsOf(dataset)
  const out: { at: number; id: number; body: Body }[] = []
  const add = (source: string, type: string, at: number, fields: Body) => {
    const id = v2EventId(source, type)
    const { incident_id, ...rest } = fields
    const incident = incident_id === undefined ? {} : { incident_id }
    out.push({ at, id, body: { id, event_type: type, ...rest, timestamp: at, ...incident } })
  }
  const violationFields = (v: SimIncident, issue: SimIssue | undefined) => {
    const appId = decodeGuid(v.entityGuid)?.appId ?? 0
    const policy = s.policies.find((p) => p.id === v.policyId)?.name ?? ''
    const condition = s.conditions.find((x) => x.id === v.conditionId)?.name ?? ''
    return {
      product: 'APM',
      entity_type: 'Application',
      entity_group_id: appId,
      entity_id: appId,
      priority: v.priority === 'CRITICAL' ? 'critical' : 'warning',
      description: `${policy} (${v.entityName} violated ${condition})`,
      ...(issue ? { incident_id: v2IncidentId(issue.issueId) } : {}),
    }
  }
  const issues = s.issues.filter((i) => i.accountId === accountId)
  for (const v of s.incidents.filter((i) => i.accountId === accountId)) {
    const issue = issues.find((i) => i.incidentIds.includes(v.incidentId))
    add(v.incidentId, 'VIOLATION_OPEN', v.createdAt, violationFields(v, issue))
    if (v.closedAt !== null)
      add(v.incidentId, 'VIOLATION_CLOSE', v.closedAt, violationFields(v, issue))
  }
  for (const issue of issues) {
    const firstViolation = s.incidents.find((v) => v.incidentId === issue.incidentIds[0])
    if (firstViolation)
      add(
        `issue/${issue.issueId}`,
        'INCIDENT_OPEN',
        issue.createdAt,
        violationFields(firstViolation, issue)
      )
  }
  for (const d of dataset.deployments.all()) {
    const app = dataset.applicationByGuid(d.entityGuid)
    if (!app || app.accountId !== accountId) continue
    add(`deployment/${d.deploymentId}`, 'DEPLOYMENT', d.timestamp, {
      product: 'APM',
      entity_type: 'Application',
      entity_group_id: app.id,
      entity_id: app.id,
      description: d.description ?? d.version,
    })
  }
  return out
}

/** The explorer's event filters: equality (product, entity type and event type in any case;
 * `VIOLATION` is either violation event), numeric IDs exactly. */
function matches(e: Body, p: Map<string, string[]>): boolean {
  const text = (name: string, field: string, test = (a: string, b: string) => a === b) => {
    const want = param(p, `filter[${name}]`)?.toUpperCase()
    return !want || test(String(e[field] ?? '').toUpperCase(), want)
  }
  const num = (name: string, field: string) => {
    const want = param(p, `filter[${name}]`)
    return !want || String(e[field] ?? '') === want
  }
  return (
    text('product', 'product') &&
    text('entity_type', 'entity_type') &&
    text('event_type', 'event_type', (a, b) => a === b || (b === 'VIOLATION' && a.startsWith(b))) &&
    num('entity_group_id', 'entity_group_id') &&
    num('entity_id', 'entity_id') &&
    num('incident_id', 'incident_id')
  )
}

const str = (v: unknown) => (v === null || v === undefined ? undefined : String(v))
/** JSON text of an object as that object; any other text as it is. */
function jsonObject(text: string | undefined): unknown {
  try {
    const parsed: unknown = text ? JSON.parse(text) : undefined
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : text
  } catch {
    return text
  }
}
const snake = (k: string) => k.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`)

/** A channel's `configuration` in v2's words, every value a string (client-go channels fixtures:
 * `include_json_attachment: "true"`, `user_id: "2680539"`) but a webhook's `headers` and JSON
 * `payload`, objects (client-go `testWebhookComplexHeadersAndPayloadResponseJSON`), keys sorted;
 * null settings omitted. */
export function channelConfiguration(ch: SimChannel): Record<string, unknown> {
  const c = ch.config
  const out: Record<string, unknown> = {}
  switch (ch.type) {
    case 'EMAIL':
      out['recipients'] = Array.isArray(c['emails']) ? c['emails'].join(',') : str(c['emails'])
      out['include_json_attachment'] = str(c['includeJson'] ?? false)
      break
    case 'SLACK':
      out['url'] = str(c['url'])
      out['channel'] = str(c['teamChannel'])
      break
    case 'WEBHOOK': {
      out['base_url'] = str(c['baseUrl'])
      const type = str(c['customPayloadType'])
      out['payload_type'] =
        type === 'FORM'
          ? 'application/x-www-form-urlencoded'
          : type
            ? 'application/json'
            : undefined
      out['payload'] = jsonObject(str(c['customPayloadBody']))
      const headers = c['customHttpHeaders'] as { name: string; value: string }[] | null | undefined
      out['headers'] = headers
        ? Object.fromEntries(headers.map((h) => [h.name, h.value]))
        : undefined
      const auth = c['basicAuth'] as { username?: string; password?: string } | null | undefined
      out['auth_username'] = str(auth?.username)
      out['auth_password'] = str(auth?.password)
      break
    }
    case 'PAGERDUTY':
      out['service_key'] = str(c['apiKey'])
      break
    case 'USER':
      out['user_id'] = str(c['userId'])
      break
    default:
      for (const [k, v] of Object.entries(c))
        out[snake(k)] = Array.isArray(v)
          ? v.join(',') // OpsGenie teams, tags, recipients: comma lists (v2 explorer POST notes)
          : typeof v === 'object' && v !== null
            ? JSON.stringify(v)
            : str(v)
  }
  return Object.fromEntries(
    Object.entries(out)
      .filter((e): e is [string, string] => e[1] !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1))
  )
}

/** explorer ChannelResponseType, keys in the client-go fixture's order; `type` in lower case. */
export const channelOut = (ch: SimChannel): Body => ({
  id: ch.id,
  name: ch.name,
  type: ch.type.toLowerCase(),
  configuration: channelConfiguration(ch),
  links: { policy_ids: [...ch.policyIds].sort((a, b) => a - b) },
})
