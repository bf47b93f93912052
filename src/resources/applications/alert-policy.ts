/**
 * @module resources/applications/alert-policy
 * v2 `links.alert_policy` ("Alert policy in which this application is a member", v2 explorer
 * `ApplicationLinksResponse`): the policy whose conditions target the application. NerdGraph lists
 * an account's NRQL conditions with their query and policy (schema
 * `AlertsAccountStitchedFields.nrqlConditionsSearch`); an NRQL condition targets the applications its
 * WHERE clause names by `appName`, `appId` or `entity.guid` (New Relic docs "Migrate metric
 * timeslice queries to NRQL" filters by the first two). Other condition kinds (APM metric
 * conditions, which list their entities) have no NerdGraph query (docs/differences.md). Errors on
 * the `conditions` aliases only leave the link out (mappings/partial-errors.ts `alerts-optional`).
 */
import type { ConditionsField } from './documents'

/** One NRQL condition as this module reads it. */
export interface TargetingCondition {
  id: number
  policyId: number
  query: string
}

/** Pure: the conditions of a `conditionsField` answer (none when alerts could not be read). */
export function conditionsFrom(field: ConditionsField | null | undefined): TargetingCondition[] {
  return (field?.nrqlConditionsSearch?.nrqlConditions ?? []).flatMap((c) => {
    const [id, policyId] = [Number(c.id), Number(c.policyId)]
    const query = c.nrql?.query
    return Number.isSafeInteger(id) && Number.isSafeInteger(policyId) && typeof query === 'string'
      ? [{ id, policyId, query }]
      : []
  })
}

/** `attribute = value` or `attribute IN (values)`; `!=` and `NOT IN` do not match. */
const naming = /\b(appName|appId|entity\.guid)\s*(?:=\s*('(?:[^'\\]|\\.)*'|\d+)|IN\s*\(([^)]*)\))/gi
const literal = /'((?:[^'\\]|\\.)*)'|(\d+)/g

/** Pure: the values a query's WHERE clause names per attribute (lower-cased attribute names). */
export function namedTargets(query: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>()
  for (const m of query.matchAll(naming)) {
    const values = out.get(m[1]!.toLowerCase()) ?? new Set<string>()
    for (const v of (m[2] ?? m[3] ?? '').matchAll(literal))
      values.add(v[1] !== undefined ? v[1].replace(/\\(.)/g, '$1') : v[2]!)
    out.set(m[1]!.toLowerCase(), values)
  }
  return out
}

/** Per attribute (lower-cased, as `namedTargets` gives them) and value: the oldest (lowest ID)
 * condition that names it, and that condition's policy. */
export type AlertPolicies = Map<string, Map<string, { id: number; policyId: number }>>

/** Pure: the conditions indexed by what they name, each query read once: a list page looks up each
 * of its applications (up to 200 per page, one account's conditions for all of them). */
export function alertPolicies(conditions: readonly TargetingCondition[]): AlertPolicies {
  const out: AlertPolicies = new Map()
  for (const c of conditions)
    for (const [attribute, values] of namedTargets(c.query)) {
      const named = out.get(attribute) ?? new Map<string, { id: number; policyId: number }>()
      for (const v of values) {
        const held = named.get(v)
        if (!held || c.id < held.id) named.set(v, { id: c.id, policyId: c.policyId })
      }
      out.set(attribute, named)
    }
  return out
}

/** Pure: the policy of the oldest (lowest ID) condition that names the application, if any. */
export function policyOf(
  policies: AlertPolicies,
  app: { applicationId: number; name: string; guid: string }
): number | undefined {
  const hits = [
    policies.get('appname')?.get(app.name),
    policies.get('appid')?.get(String(app.applicationId)),
    policies.get('entity.guid')?.get(app.guid),
  ]
  let first: { id: number; policyId: number } | undefined
  for (const hit of hits) if (hit && (!first || hit.id < first.id)) first = hit
  return first?.policyId
}

/** Pure: `policyOf` over conditions not yet indexed (one application). */
export const alertPolicyOf = (
  conditions: readonly TargetingCondition[],
  app: { applicationId: number; name: string; guid: string }
): number | undefined => policyOf(alertPolicies(conditions), app)
