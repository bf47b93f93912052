/**
 * @module resources/metrics/families
 * Lookups over mappings/metric-families.ts: a metric name's family, the values a call answers for
 * it, and the definition of each value (pure; the tables are a defaulted parameter).
 */
import { metricFamilies, type MetricFamily } from '../../../mappings/metric-families'
import { valueTypes, type ValueDefinition, type ValueType } from '../../../mappings/value-types'

export interface Tables {
  families: readonly MetricFamily[]
  values: Readonly<Record<string, ValueDefinition>>
}

export const defaultTables: Tables = { families: metricFamilies, values: valueTypes }

/** The first family whose names or prefixes match (the last row matches every name). */
export function familyOf(name: string, tables: Tables = defaultTables): MetricFamily {
  const hit = tables.families.find(
    (f) => f.names.includes(name) || f.prefixes.some((p) => name.startsWith(p))
  )
  return hit ?? tables.families.at(-1)!
}

/**
 * The values to answer for one metric: all of the family's values in family order when `requested`
 * is null, else the requested ones the family has (`onlyAsked` too), in request order (docs "Extract
 * metric timeslice data": `values[]=call_count&values[]=average_response_time` answers call_count
 * first); unknown or inapplicable ones are dropped silently (D-names).
 */
export function valuesFor(family: MetricFamily, requested: readonly string[] | null): ValueType[] {
  if (requested === null) return [...family.values]
  const own = new Set<string>([...family.values, ...(family.onlyAsked ?? [])])
  return requested.filter((v): v is ValueType => own.has(v))
}

/** The values metric names list for a family (D-names; data-only ones left out). */
export function listedValues(family: MetricFamily, tables: Tables = defaultTables): ValueType[] {
  return family.values.filter((v) => definitionOf(family, v, tables).inNames !== false)
}

export function definitionOf(
  family: MetricFamily,
  value: ValueType,
  tables: Tables = defaultTables
): ValueDefinition {
  const definition = family.overrides?.[value] ?? tables.values[value]
  if (!definition) throw new Error(`mappings: no definition for value type ${value}`)
  return definition
}
