/**
 * @module simulator/types
 * The interface shared by the simulator's dataset (data/, the metric store) and its NRQL evaluator
 * (nrql/). It imports nothing, so both sides depend on it and not on each other.
 */

/** The six components NRDB keeps per timeslice row (durations in seconds). Apdex rows pack
 * s / t / f in count / total / totalExclusive and the threshold (seconds) in min and max. */
export interface TimesliceValue {
  count: number
  total: number
  totalExclusive: number
  min: number
  max: number
  sumOfSquares: number
}

/** One one-minute timeslice row of `FROM Metric`, as one agent instance reported it. */
export interface MetricRow {
  /** Epoch milliseconds at the start of the minute. */
  timestamp: number
  accountId: number
  appId: number
  appName: string
  /** NRQL attribute `entity.guid`. */
  entityGuid: string
  metricTimesliceName: string
  /** NRQL attribute `host`. */
  host: string
  /** NRQL attribute `instanceName` (the agent instance on that host, e.g. `host:8080`). */
  instanceName: string
  /** NRQL attribute `scope`: null for the unscoped rollup, else the scoping transaction name. */
  scope: string | null
  /** NRQL attribute `newrelic.timeslice.value`. */
  value: TimesliceValue
}

/**
 * Narrowing hints the evaluator derives from WHERE (only conjunctive equalities / IN lists it can
 * prove). The store may use them to skip work; it may also ignore them (the evaluator always
 * re-applies the full WHERE to every row it receives).
 */
export interface ScanHint {
  accountId: number
  /** Inclusive lower bound, epoch ms. */
  since: number
  /** Exclusive upper bound, epoch ms. */
  until: number
  appIds?: readonly number[]
  entityGuids?: readonly string[]
  names?: readonly string[]
  hosts?: readonly string[]
  /** The rollup the window reads (simulator/nrql/window.ts `rollupOf`): rows of this length, each the
   * rollup of the one-minute rows in it; one minute when absent. */
  rollupMs?: number
  /** The query only asks which series exist (`uniques()` without TIMESERIES): the store may yield
   * just the first row of each series in the window. */
  seriesOnce?: boolean
}

/**
 * How long timeslice data is kept at each resolution and which rollup a `FROM Metric` window reads.
 * New Relic docs "Data retention and components" (Aggregate metric data): one-minute data for
 * 8 days, then 1-hour periods, metric timeslice data kept 90 days. Tests shrink the numbers.
 */
export interface Retention {
  /** One-minute rows are kept this long behind the last complete minute (8 days). */
  minuteMs: number
  /** Hourly rollups are kept this long (90 days). */
  hourMs: number
  /** A window inside the one-minute data and longer than this reads the 5-minute rollup. New Relic
   * docs "Set a query's time range" (Metric query snapping) shows a 47 h 59 min window on 5-minute
   * edges; where the switch lies is [UNKNOWN]: 6 h, where v2's own slices become 5-minute multiples
   * (New Relic docs "Extract metric timeslice data"). */
  fiveMinuteAfterMs: number
}

export const DEFAULT_RETENTION: Readonly<Retention> = {
  minuteMs: 8 * 86_400_000,
  hourMs: 90 * 86_400_000,
  fiveMinuteAfterMs: 6 * 3_600_000,
}

export interface MetricStore {
  scan(hint: ScanHint): Iterable<MetricRow>
}

/** `metadata` of an NRQL result as NerdGraph returns it. */
export interface NrqlMetadata {
  eventTypes: string[]
  facets: string[] | null
  messages: string[]
  timeWindow: { begin: number; end: number; since: string; until: string; compareWith: null }
}

export interface NrqlResult {
  results: Record<string, unknown>[]
  metadata: NrqlMetadata
  totalResult: Record<string, unknown> | Record<string, unknown>[] | null
  otherResult: Record<string, unknown> | Record<string, unknown>[] | null
}

/** One event of an event type other than Metric (e.g. `Deployment`), as NRQL reads it. */
export interface EventRow {
  eventType: string
  accountId: number
  timestamp: number
  /** Every attribute but `timestamp`, absent ones left out. */
  attributes: Record<string, string | number>
}

/** What the simulator holds of one application's `Transaction` events: their attributes that do
 * not change (`appId`, `appName`) and the newest event's time in [since, until), or null. */
export interface TransactionSource {
  accountId: number
  attributes: Record<string, string | number>
  newest(since: number, until: number): number | null
}

/** NRDB's result caps (New Relic docs "NRQL syntax, clauses, and functions"): `LIMIT` at most
 * 5,000 facets (`LIMIT MAX`), `uniques()` at most 10,000 values. Tests shrink them. */
export interface NrqlLimits {
  limitMax: number
  uniquesCap: number
  /** Lenient switch, the shape the simulator answered before: every FACET attribute's own key on
   * every row, beside `facet` (live, a multi-attribute row carries `facet` only: nrql/shape.ts). */
  everyFacetKey?: boolean
}

export interface NrqlContext {
  accountId: number
  /** NRDB's caps; the live ones when absent. */
  limits?: Partial<NrqlLimits>
  store: MetricStore
  /** The events of the named event types (`FROM Deployment`, …); none when absent. */
  events?: (eventTypes: readonly string[]) => readonly EventRow[]
  /** The applications of an account as `FROM Transaction` reads them (nrql/transactions.ts); none
   * when absent. */
  transactions?: (accountId: number) => readonly TransactionSource[]
  /** Epoch ms used for relative clauses and the default window. */
  now: number
  /** Which rollup a Metric window reads; DEFAULT_RETENTION when absent. */
  retention?: Retention
}

/** Thrown for NRQL outside the supported subset or invalid NRQL; the GraphQL layer turns it into
 * a NerdGraph-shaped error (`extensions.errorClass` 'INVALID_INPUT' / 'NRQL_SYNTAX_ERROR'). */
export class NrqlError extends Error {
  constructor(
    message: string,
    readonly errorClass: 'NRQL_SYNTAX_ERROR' | 'INVALID_INPUT' = 'NRQL_SYNTAX_ERROR'
  ) {
    super(message)
    this.name = 'NrqlError'
  }
}
