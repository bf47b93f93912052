/**
 * @module mappings/metric-families
 * Metric name → family → its value list (sources per row; tags in docs/sources.md): the values a
 * data call returns when `values[]` is omitted, in v2's order, and the list metric names show. The
 * first matching row wins; the last row matches every name. Checked by mappings/schemas.ts.
 */
import { apdexCount, cpuTimePercent, type ValueDefinition, type ValueType } from './value-types'

export interface MetricFamily {
  readonly family: string
  /** Names equal to one of these, or starting with one of `prefixes`, belong to the family. */
  readonly names: readonly string[]
  readonly prefixes: readonly string[]
  /** Every value, in v2's order (returned when `values[]` is omitted). */
  readonly values: readonly ValueType[]
  /** Values answered only when `values[]` names them: neither returned when it is omitted nor
   * listed by metric names. */
  readonly onlyAsked?: readonly ValueType[]
  /** Family-specific definitions of a value. */
  readonly overrides?: Partial<Record<ValueType, ValueDefinition>>
}

/** Transaction/segment values: D-extract 2016 order (11 values, `average_call_time` last). */
const timesliceValues = [
  'average_response_time',
  'calls_per_minute',
  'call_count',
  'min_response_time',
  'max_response_time',
  'average_exclusive_time',
  'average_value',
  'total_call_time_per_minute',
  'requests_per_minute',
  'standard_deviation',
  'average_call_time',
] as const satisfies readonly ValueType[]

export const metricFamilies = [
  {
    family: 'apdex', // D-names, D-apdex
    names: ['Apdex', 'EndUser/Apdex'],
    prefixes: ['Apdex/', 'EndUser/Apdex/'],
    values: ['s', 't', 'f', 'count', 'score', 'value', 'threshold', 'threshold_min'],
    overrides: { count: apdexCount },
  },
  {
    family: 'errors', // D-errrate, D-nrql; HAR reads them
    names: ['Errors/all'],
    prefixes: ['Errors/'],
    values: ['error_count', 'errors_per_minute'],
  },
  {
    family: 'cpuUserTime', // AMB fixture, D-hostex
    names: ['CPU/User Time'],
    prefixes: [],
    values: ['percent', 'average_time', 'total_time'],
    overrides: { percent: cpuTimePercent },
  },
  {
    family: 'cpuUtilization', // a community XML client (PYPROV) reads it: a fraction, D-nrql `average × 100`
    names: ['CPU/User/Utilization'],
    prefixes: [],
    values: ['percent'],
  },
  {
    family: 'gc', // GO fixture (newrelic-client-go pkg/apm metric data test)
    names: [],
    prefixes: ['GC/'],
    values: [
      'as_percentage',
      'average_time',
      'calls_per_minute',
      'max_value',
      'total_call_time_per_minute',
      'utilization',
    ],
  },
  {
    // GO fixture, D-hostex. No `percent`: timeslices carry no total physical
    // memory to divide by, and D-hostex's own command asks used_mb_by_host; a requested `percent` is
    // inapplicable and left out (D-names: inapplicable values are simply not returned).
    family: 'memory',
    names: ['Memory/Physical'],
    prefixes: ['Memory/'],
    values: ['used_bytes_by_host', 'used_mb_by_host', 'total_used_mb'],
  },
  {
    // D-browser, D-nrql (its EndUser table has `error_percentage`). `requests_per_minute` only when
    // asked: D-browser's page throughput example asks it, D-nrql's EndUser table does not list it.
    family: 'endUser',
    names: ['EndUser', 'EndUser/RB'],
    prefixes: ['EndUser/'],
    values: [
      'average_response_time',
      'call_count',
      'average_network_time',
      'average_fe_response_time',
      'average_be_response_time',
      'total_network_time',
      'network_time_percentage',
      'total_fe_time',
      'fe_time_percentage',
      'average_dom_content_load_time',
      'average_queue_time',
      'total_queue_time',
      'total_dom_content_time',
      'total_app_time',
      'average_app_time',
      'error_percentage',
    ],
    onlyAsked: ['requests_per_minute'],
  },
  {
    family: 'mobile', // D-mobile, D-nrql
    names: [],
    prefixes: ['Mobile/', 'Session/'],
    values: ['call_count', 'launch_count', 'average_sent_bytes', 'average_received_bytes'],
  },
  {
    // Transaction and segment timeslices and everything else (D-extract, TONS: HttpDispatcher,
    // WebTransaction*, OtherTransaction*, Datastore/*, External/*, WebFrontend/QueueTime, …).
    // Only these values: a generic one (`average_time`, `rate`, `percent`…) asked of a transaction
    // metric is inapplicable and left out (D-names: not returned, no error).
    family: 'timeslice',
    names: [],
    prefixes: [''],
    values: timesliceValues,
  },
] as const satisfies readonly MetricFamily[]

export type FamilyName = (typeof metricFamilies)[number]['family']
