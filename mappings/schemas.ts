/**
 * @module mappings/schemas
 * The zod schemas of the metric mapping tables (mappings/value-types.ts, metric-families.ts,
 * granularity.ts), checked when this module loads: the Node entry imports it, so a bad row stops
 * start-up, and test/mappings.test.ts runs them. The Worker leaves it out: its tables are the same
 * constants, and zod/mini would be 8 KiB gzipped of its upload (`npm run size`).
 */
import * as z from 'zod/mini'
import { defaultGranularity, maxBuckets, minimumSliceSeconds } from './granularity'
import { metricFamilies } from './metric-families'
import {
  apdexCount,
  cpuTimePercent,
  formulas,
  nrqlInputs,
  otherMetrics,
  valueTypes,
  type FormulaName,
  type InputName,
} from './value-types'

export const ValueDefinitionSchema = z.union([
  z.strictObject({
    nrql: z.string().check(z.minLength(1)),
    count: z.optional(z.literal(true)),
    inNames: z.optional(z.literal(false)),
  }),
  z
    .strictObject({
      inputs: z
        .array(z.enum(Object.keys(nrqlInputs) as [InputName, ...InputName[]]))
        .check(z.minLength(1)),
      formula: z.enum(Object.keys(formulas) as [FormulaName, ...FormulaName[]]),
      count: z.optional(z.literal(true)),
      inNames: z.optional(z.literal(false)),
    })
    .check(
      z.refine(
        (d) => new Set(d.inputs.map((i) => Object.hasOwn(otherMetrics, i))).size === 1,
        'inputs all of the metric itself or all of other metrics (one row each)'
      )
    ),
])

export const ValueTypesSchema = z.record(
  z.string().check(z.regex(/^[a-z_]+$/)),
  ValueDefinitionSchema
)

const valueName = z
  .string()
  .check(z.refine((n) => Object.hasOwn(valueTypes, n), 'a known value type'))

export const FamiliesSchema = z
  .array(
    z.strictObject({
      family: z.string().check(z.minLength(1)),
      names: z.array(z.string().check(z.minLength(1))),
      prefixes: z.array(z.string()),
      values: z.array(valueName).check(z.minLength(1)),
      onlyAsked: z.optional(z.array(valueName)),
      overrides: z.optional(z.record(valueName, ValueDefinitionSchema)),
    })
  )
  .check(
    z.refine((rows) => new Set(rows.map((r) => r.family)).size === rows.length, 'unique families'),
    z.refine(
      (rows) => rows.at(-1)?.prefixes.includes('') === true,
      'the last family matches every name'
    ),
    z.refine(
      (rows) =>
        rows.every((r) => {
          const all = [...r.values, ...(r.onlyAsked ?? [])]
          return new Set(all).size === all.length
        }),
      'no value is listed twice in a family'
    )
  )

const wholeMinutes = z.int().check(
  z.positive(),
  z.refine((s) => s % minimumSliceSeconds === 0, 'a whole number of minutes')
)

export const GranularitySchema = z
  .array(
    z.strictObject({
      upTo: z.union([z.number().check(z.positive()), z.custom<number>((v) => v === Infinity)]),
      fresh: wholeMinutes,
      old: z.union([wholeMinutes, z.literal('tenPoints')]),
    })
  )
  .check(
    z.refine(
      (rows) => rows.every((r, i) => i === 0 || r.upTo > rows[i - 1]!.upTo),
      'upTo increases'
    ),
    z.refine((rows) => rows.at(-1)?.upTo === Infinity, 'the last row covers every range'),
    z.refine(
      (rows) => rows.every((r) => r.upTo === Infinity || r.upTo / r.fresh <= maxBuckets),
      `no row exceeds ${maxBuckets} buckets`
    )
  )

ValueTypesSchema.parse(valueTypes)
ValueDefinitionSchema.parse(cpuTimePercent)
ValueDefinitionSchema.parse(apdexCount)
FamiliesSchema.parse(metricFamilies)
GranularitySchema.parse(defaultGranularity)
