/** @module simulator/v2/conditions — the condition families of the v2 stand-in and their seed rows. */
import type { AlertsState, SimNrqlCondition } from '../data/alerts/state'

export interface Family {
  /** Path segment after `/v2/`. */
  path: string
  /** List key and single key of the v2 bodies. */
  list: string
  single: string
  /** Listed by `?policy_id=` (the location-failure family lists under `/policies/{id}`). */
  listByQuery: boolean
}

/** GO pkg/alerts fixtures and v2 explorer models; swagger paths of each family. */
export const conditionFamilies: readonly Family[] = [
  { path: 'alerts_conditions', list: 'conditions', single: 'condition', listByQuery: true },
  {
    path: 'alerts_nrql_conditions',
    list: 'nrql_conditions',
    single: 'nrql_condition',
    listByQuery: true,
  },
  {
    path: 'alerts_external_service_conditions',
    list: 'external_service_conditions',
    single: 'external_service_condition',
    listByQuery: true,
  },
  {
    path: 'alerts_synthetics_conditions',
    list: 'synthetics_conditions',
    single: 'synthetics_condition',
    listByQuery: true,
  },
  {
    path: 'alerts_location_failure_conditions',
    list: 'location_failure_conditions',
    single: 'location_failure_condition',
    listByQuery: false,
  },
]

/** A stored v2 condition; `policy_id` is kept for lookups and never shown. */
export type V2Row = Record<string, unknown>

const priorities: Record<string, string> = { CRITICAL: 'critical', HIGH: 'warning' }

/** The v2 shape of an NRQL condition (client-go nrql_conditions_test.go): strings for durations
 * and thresholds, minutes for `duration`. */
function nrqlRow(c: SimNrqlCondition): V2Row {
  return {
    type: 'static',
    id: c.id,
    name: c.name,
    enabled: c.enabled,
    value_function: 'single_value',
    violation_time_limit_seconds: 86400,
    terms: [
      {
        duration: String(c.thresholdDuration / 60),
        operator: c.operator.toLowerCase(),
        priority: priorities[c.priority] ?? 'warning',
        threshold: String(c.threshold),
        time_function: 'all',
      },
    ],
    nrql: { query: c.query, since_value: '3' },
    policy_id: c.policyId,
  }
}

/** Seed rows: the simulator's NRQL conditions, and one APM metric condition (DOC-DISABLE shape). */
export function seedConditions(s: AlertsState): Record<string, V2Row[]> {
  return {
    alerts_nrql_conditions: s.conditions.map(nrqlRow),
    alerts_conditions: [
      {
        id: 7101290,
        type: 'apm_app_metric',
        name: 'Apdex (High)',
        enabled: true,
        entities: ['9045822'],
        metric: 'apdex',
        condition_scope: 'application',
        terms: [
          {
            duration: '5',
            operator: 'below',
            priority: 'critical',
            threshold: '0.85',
            time_function: 'all',
          },
        ],
        policy_id: 5101102,
      },
    ],
  }
}
