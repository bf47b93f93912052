import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { memberRows, topologyFrom } from '../../src/entities/topology'
import { sumsByInstance } from '../../src/resources/applications/hosts/summary'
import { browserSummariesFrom } from '../../src/resources/applications/browser'
import { summaryRows } from '../../src/resources/key-transactions/reshape'
import { sliceIndex } from '../../src/resources/metrics/reshape'
import { readRaw, readersOf } from '../../src/resources/metrics/read'
import {
  facetAt,
  facetPosition,
  facetValue,
  facetedRows,
  type FacetedNrql,
} from '../../src/upstream/nrql-rows'

/** An answer recorded from the live NerdGraph (test/fixtures/nerdgraph-recorded/README.md). */
const recorded = (name: string): FacetedNrql & { results: Record<string, unknown>[] } =>
  JSON.parse(
    readFileSync(new URL(`../fixtures/nerdgraph-recorded/${name}.json`, import.meta.url), 'utf8')
  )

/** The same rows under other FACET attribute names: what a reader of those attributes receives
 * from an answer of this shape. The rows stay byte for byte as recorded. */
const relabelled = (answer: FacetedNrql, facets: string[]): FacetedNrql => ({
  ...answer,
  metadata: { ...answer.metadata, facets },
})

const one = recorded('facet-one-attribute')
const two = recorded('facet-two-attributes')
const series = recorded('facet-two-attributes-timeseries')

describe('recorded live NRQL answers, replayed through the readers', () => {
  it('reads a two-attribute FACET by position: the rows carry only `facet`', () => {
    expect(two.metadata?.facets).toEqual(['pageUrl', 'deviceType'])
    for (const row of two.results) expect(Object.keys(row).sort()).toEqual(['facet', 'page_views'])
    expect(facetedRows(two, ['deviceType', 'pageUrl']).map((r) => r.facet)).toEqual([
      {
        deviceType: 'Mobile',
        pageUrl: 'https://www.example.in/blog/how-to-earn-1000-per-day-without-investment-online',
      },
      { deviceType: 'Mobile', pageUrl: 'https://www.example.in/' },
      { deviceType: 'Desktop', pageUrl: 'https://www.example.in/' },
      { deviceType: 'Tablet', pageUrl: 'https://www.example.in/' },
    ])
    expect(facetValue(two.results[3]!, two.metadata, 'deviceType')).toBe('Tablet')
    expect(facetValue(two.results[3]!, two.metadata, 'host')).toBeUndefined()
  })

  it('reads a one-attribute FACET from `facet`, a string, which its own key repeats', () => {
    expect(facetPosition(one.metadata, 'deviceType')).toBe(0)
    expect(one.results.map((r) => [facetAt(r, 0), r['deviceType']])).toEqual([
      ['Mobile', 'Mobile'],
      ['Desktop', 'Desktop'],
    ])
  })

  it('gives the host summaries of a two-attribute answer, host and instance by position', () => {
    const sums = sumsByInstance(relabelled(two, ['host', 'instanceName']))
    expect([...sums.keys()]).toEqual([
      'https://www.example.in/blog/how-to-earn-1000-per-day-without-investment-online\u0000Mobile',
      'https://www.example.in/\u0000Mobile',
      'https://www.example.in/\u0000Desktop',
      'https://www.example.in/\u0000Tablet',
    ])
  })

  it('reads members, browser figures and key-transaction rows from `facet`, not the key', () => {
    // The one-attribute rows keep their `deviceType` key: a reader of `host` finds it only by position.
    const members = memberRows(relabelled(one, ['host']))
    expect(members.map((m) => m.host)).toEqual(['Mobile', 'Desktop'])
    expect([...topologyFrom(1, members).hosts.keys()].sort()).toEqual(['Desktop', 'Mobile'])
    const apps = { ...one, results: one.results.map((r, i) => ({ ...r, facet: String(7 + i) })) }
    expect([...browserSummariesFrom(relabelled(apps, ['appId'])).keys()]).toEqual([7, 8])
    expect([...summaryRows(relabelled(one, ['entity.guid'])).keys()]).toEqual(['Mobile', 'Desktop'])
  })

  it('places TIMESERIES rows by beginTimeSeconds, one-hour buckets end to end', () => {
    const range = {
      from: 1779285344,
      to: 1779292544,
      start: 1779285344_000,
      end: 1779292544_000,
      sliceMs: 3_600_000,
      summarize: false,
    }
    expect(series.results.map((r) => [r['endTimeSeconds'], sliceIndex(range, r)])).toEqual([
      [1779288944, 0],
      [1779292544, 1],
      [1779288944, 0],
      [1779292544, 1],
    ])
    expect(facetedRows(series, ['deviceType']).map((r) => r.facet.deviceType)).toEqual([
      'Mobile',
      'Mobile',
      'Desktop',
      'Desktop',
    ])
  })

  it('never reads a percentile, an object keyed by the percentile, as a number', () => {
    // v2bridge sends no percentile(); a value reader meeting one answers "no data", not a number.
    const row = one.results[0]!
    expect(row['lcp']).toEqual({ '75': 1.796875, '95': 5.0625 })
    expect(series.results[0]!['lcp']).toEqual({ '75': 35.064 })
    const [reader] = readersOf([{ value: 'lcp', count: false, alias: 'lcp' }] as never, true)
    expect(readRaw(reader!, row)).toBeNull()
    expect(readRaw(reader!, { lcp: 1.796875 })).toBe(1.796875)
  })
})
