/**
 * @module simulator/nrql/ast
 * AST of the NRQL subset the simulator understands: plain JSON data, no positions.
 */

export type TimeUnit = 'second' | 'minute' | 'hour' | 'day' | 'week'

export interface Duration {
  amount: number
  unit: TimeUnit
}

/** SINCE / UNTIL operand: epoch milliseconds, `<N> <unit> AGO`, or `NOW`. */
export type TimeSpec =
  { type: 'epoch'; ms: number } | { type: 'ago'; amount: number; unit: TimeUnit } | { type: 'now' }

/** Attributes of `FROM Metric` rows the subset knows (canonical NRQL names). */
export type Attribute =
  | 'appId'
  | 'appName'
  | 'metricTimesliceName'
  | 'host'
  | 'instanceName'
  | 'entity.guid'
  | 'scope'
  | 'newrelic.timeslice.value'

/** Attributes usable in FACET, uniques() and value comparisons. */
export type FacetAttribute = Exclude<Attribute, 'newrelic.timeslice.value'>

export type Component = 'count' | 'total' | 'totalExclusive' | 'min' | 'max' | 'sumOfSquares'

export type Literal = string | number

export type ArithOp = '+' | '-' | '*' | '/'

export type Condition =
  | { type: 'and'; conditions: Condition[] }
  | { type: 'or'; conditions: Condition[] }
  | { type: 'not'; condition: Condition }
  | { type: 'compare'; attribute: FacetAttribute; op: '=' | '!='; value: Literal }
  /** `<`, `<=`, `>`, `>=` (New Relic docs "NRQL syntax, clauses, and functions", WHERE operators). */
  | { type: 'order'; attribute: FacetAttribute; op: '<' | '<=' | '>' | '>='; value: Literal }
  | { type: 'in'; attribute: FacetAttribute; values: Literal[]; negated: boolean }
  | { type: 'like'; attribute: FacetAttribute; pattern: string; negated: boolean }
  | { type: 'isNull'; attribute: Attribute; negated: boolean }

/** Per-row numeric expression over `newrelic.timeslice.value['<component>']`. */
export type RowExpr =
  | { type: 'component'; component: Component }
  | { type: 'number'; value: number }
  | { type: 'negate'; operand: RowExpr }
  | { type: 'binary'; op: ArithOp; left: RowExpr; right: RowExpr }

/** Argument of count/sum/average/min/max/stddev/apdex: `*` (count only), the timeslice
 * attribute itself, or a per-row expression over its components. */
/** `timestamp`: the row's epoch ms, for `min(timestamp)` / `max(timestamp)` (last report time). */
export type AggregateArg =
  { type: 'star' } | { type: 'timeslice' } | { type: 'timestamp' } | RowExpr

export type SimpleFunction = 'count' | 'sum' | 'average' | 'min' | 'max' | 'stddev' | 'apdex'

export type Aggregate =
  | { type: 'aggregate'; fn: SimpleFunction; arg: AggregateArg }
  /** `count`: `uniqueCount(attribute)`, the number of distinct values (no cap). */
  | { type: 'uniques'; attribute: FacetAttribute; limit: number | null; count?: true }
  | { type: 'rate'; aggregate: Aggregate; per: Duration }
  | { type: 'filter'; aggregate: Aggregate; where: Condition }

/** Select-item expression: arithmetic over aggregates and numeric constants. */
export type SelectExpr =
  | Aggregate
  | { type: 'number'; value: number }
  | { type: 'negate'; operand: SelectExpr }
  | { type: 'binary'; op: ArithOp; left: SelectExpr; right: SelectExpr }

export interface SelectItem {
  expr: SelectExpr
  alias: string | null
}

export interface NrqlQuery {
  select: SelectItem[]
  from: 'Metric'
  where: Condition | null
  facet: FacetAttribute[] | null
  since: TimeSpec | null
  until: TimeSpec | null
  timeseries: Duration | null
  limit: number | 'MAX' | null
}
