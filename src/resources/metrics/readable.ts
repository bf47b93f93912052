/**
 * @module resources/metrics/readable
 * A metric-data call as NRQL written for people (pure): one query per metric family, each v2 value
 * one select item named as v2 names it (`AS 'average_response_time'`), times as ISO strings or
 * `SINCE 30 minutes ago`, ready for the query builder or a script. Explain shows it beside the
 * documents v2bridge sends (src/explain/), which fetch shared inputs once under short aliases and
 * apply formulas and constant factors in v2bridge. Time formats: New Relic docs "Set a query's time
 * range".
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import {
  formulaNrql,
  nrqlInputs,
  otherMetrics,
  type ValueDefinition,
} from '../../../mappings/value-types'
import type { MetricFamily } from '../../../mappings/metric-families'
import { quote, quoteList } from '../../core/nrql'
import { defaultTables, definitionOf, familyOf, valuesFor, type Tables } from './families'
import { scopeWhere, type MetricDataRequest, type MetricScope } from './plan'

/** `2026-11-20T10:00:00Z`: whole seconds, UTC. */
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

/**
 * `relative`: the call gave neither `from` nor `to`, so the window ends now
 * (`SINCE n minutes ago`); otherwise the call's own window as ISO times.
 */
export function readableMetricData(
  request: Pick<MetricDataRequest, 'names' | 'values' | 'range'>,
  scope: MetricScope,
  relative: boolean,
  tables: Tables = defaultTables
): string[] {
  const families = new Map<MetricFamily, string[]>()
  for (const name of request.names) {
    const family = familyOf(name, tables)
    families.set(family, [...(families.get(family) ?? []), name])
  }
  const { range } = request
  const minutes = (range.end - range.start) / 60_000
  const when = relative
    ? `SINCE ${minutes} minutes ago`
    : `SINCE ${quote(iso(range.start))} UNTIL ${quote(iso(range.end))}`
  const slice = range.sliceMs / 60_000
  const series = range.summarize ? '' : ` TIMESERIES ${slice} ${slice === 1 ? 'minute' : 'minutes'}`
  const query = (select: string[], names: string[], facet: readonly string[]) =>
    `SELECT ${select.join(', ')} FROM Metric WHERE ${scopeWhere(scope)} AND scope IS NULL ` +
    `AND metricTimesliceName IN ${quoteList(names)} ` +
    (facet.length ? `FACET ${facet.join(', ')} ` : '') +
    `${when}${series}${facet.length ? ' LIMIT MAX' : ''}`
  // Values of other metrics (mappings/value-types.ts `otherMetrics`): one query without the facet
  // by metric, the same value for every metric of the call that has it.
  const others = new Map<string, string>()
  const otherNames = new Set<string>()
  const queries = [...families].map(([family, names]) => {
    const select: string[] = []
    for (const value of valuesFor(family, request.values)) {
      const d = definitionOf(family, value, tables)
      const item = `${expressionOf(d)} AS ${quote(value)}`
      const read = 'inputs' in d ? d.inputs.filter((i) => Object.hasOwn(otherMetrics, i)) : []
      if (!read.length) select.push(item)
      else others.set(value, item)
      for (const i of read) otherNames.add(otherMetrics[i as keyof typeof otherMetrics])
    }
    // No requested value of its own: which names are found.
    if (!select.length) select.push(`${nrqlInputs.count} AS 'rows'`)
    return query(select, names, ['metricTimesliceName', ...(scope.facetBy ?? [])])
  })
  if (others.size) queries.push(query([...others.values()], [...otherNames], scope.facetBy ?? []))
  return queries
}

const expressionOf = (d: ValueDefinition) =>
  'nrql' in d ? d.nrql : formulaNrql[d.formula]((i) => nrqlInputs[i])

/** Lets explain show the call's readable NRQL; computed only if explain asks. */
export function readableFor(c: Context<Env>, request: MetricDataRequest, scope: MetricScope) {
  const params = c.get('params')
  const relative = !params.get('from') && !params.get('to')
  c.set('readable', () => readableMetricData(request, scope, relative))
}
