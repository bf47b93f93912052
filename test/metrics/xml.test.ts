/**
 * metric_data_response in XML, against the real sample in tonsser/slack-bot `app/NewRelic.hs` (2015):
 * the same request, the same values, the same bytes, plus the `metrics_not_found` / `metrics_found`
 * elements that post-2016 responses carry (F-404; their XML form is [INFERRED] from Rails
 * `singularize`).
 */
import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app'
import { parseConfig } from '../../src/core/config'
import { planMetricData } from '../../src/resources/metrics/plan'
import { resolveTimeRange } from '../../src/core/time-range'
import { fakeFetch } from '../helpers/fake-fetch'
import { DEMO_KEYS } from '../helpers/harness'

const tonsSample = `<?xml version="1.0" encoding="UTF-8"?>
<metric_data_response>
  <metric_data>
    <from>2015-11-02T14:48:43+00:00</from>
    <to>2015-11-09T00:00:00+00:00</to>
    <metrics>
      <metric>
        <name>Agent/MetricsReported/count</name>
        <timeslices>
          <timeslice>
            <from>2015-11-02T15:00:00+00:00</from>
            <to>2015-11-09T00:00:00+00:00</to>
            <values>
              <average_response_time>111</average_response_time>
              <calls_per_minute>6.99</calls_per_minute>
              <call_count>64144</call_count>
              <min_response_time>21.0</min_response_time>
              <max_response_time>972</max_response_time>
              <average_exclusive_time>111</average_exclusive_time>
              <average_value>0.111</average_value>
              <total_call_time_per_minute>0.775</total_call_time_per_minute>
              <requests_per_minute>6.99</requests_per_minute>
              <standard_deviation>129</standard_deviation>
            </values>
          </timeslice>
        </timeslices>
      </metric>
    </metrics>
  </metric_data>
</metric_data_response>
`

const name = 'Agent/MetricsReported/count'
/** The 10 values of the 2015 sample (no average_call_time, which came in 2016). */
const sampleValues = [
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
]
const query =
  `names[]=${name}&${sampleValues.map((v) => `values[]=${v}`).join('&')}` +
  '&from=2015-11-02T14:48:43%2B00:00&to=2015-11-09T00:00:00%2B00:00&summarize=true'

/** An NRQL answer whose values round to the sample's: aliases taken from the plan itself. */
function upstreamRow(): Record<string, unknown> {
  const range = resolveTimeRange(
    { from: '2015-11-02T14:48:43+00:00', to: '2015-11-09T00:00:00+00:00', summarize: true },
    Date.now()
  )
  const plan = planMetricData(
    { now: 0, names: [name], values: sampleValues, range, raw: false },
    { accountId: 1, guid: 'G' }
  )
  const count = 64144
  const mean = 0.1114 // seconds
  const sd = 0.1288
  const source: Record<string, number> = {
    average_response_time: 111.4,
    calls_per_minute: 6.9912,
    call_count: count,
    min_response_time: 21.04,
    max_response_time: 972.3,
    average_exclusive_time: 110.6,
    average_value: 0.11142,
    total_call_time_per_minute: 0.7751,
    requests_per_minute: 6.9912,
  }
  const row: Record<string, unknown> = { facet: name, metricTimesliceName: name }
  for (const read of plan.metrics[0]!.values) {
    // A scaled value shares its column (average_value's seconds are average_response_time's ms).
    if ('alias' in read)
      row[read.alias] ??= source[read.value]! / (read.scale ?? []).reduce((a, f) => a * f, 1)
    else {
      row[read.inputs.count!] = count
      row[read.inputs.total!] = count * mean
      row[read.inputs.sumOfSquares!] = count * (sd * sd + mean * mean)
    }
  }
  return row
}

describe('metric_data_response XML', () => {
  it('renders the confirmed real sample byte for byte (plus metrics_found / metrics_not_found)', async () => {
    const upstream = fakeFetch({
      body: {
        data: {
          actor: {
            account: {
              q0: { results: [upstreamRow()], metadata: { facets: ['metricTimesliceName'] } },
              k0: { results: [{ names: [name] }], metadata: null },
            },
          },
        },
      },
    })
    const app = createApp({
      config: parseConfig({
        NERDGRAPH_URL: 'https://nerdgraph.test/graphql',
        ALLOW_HTTP: 'true',
        ACCOUNT_ID: '1',
      }),
      fetch: upstream.fetch,
    })
    const res = await app.request(`/v2/applications/42/metrics/data.xml?${query}`, {
      headers: { 'X-Api-Key': DEMO_KEYS.all },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/)
    const text = await res.text()
    const found =
      '    <metrics_not_found/>\n' +
      '    <metrics_found>\n' +
      `      <metrics_found>${name}</metrics_found>\n` +
      '    </metrics_found>\n'
    expect(text).toBe(tonsSample.replace('    <metrics>\n', `${found}    <metrics>\n`))
    expect(text.replace(found, '')).toBe(tonsSample)
    // The hourly grid anchored on `to` starts the summarized slice at 15:00 (the TONS sample).
    expect(upstream.sent[0]!.variables['q0']).toContain(
      `SINCE ${Date.UTC(2015, 10, 2, 15)} UNTIL ${Date.UTC(2015, 10, 9)}`
    )
  })

  it('lists names without data as metrics_not_found items and self-closes empty lists', async () => {
    const upstream = fakeFetch(
      {
        body: {
          data: {
            actor: {
              account: {
                q0: { results: [], metadata: null },
                k0: { results: [{ names: [] }], metadata: null },
              },
            },
          },
        },
      },
      // No rows under a pinned account: the application is confirmed to be in it (src/entities/resolve.ts).
      {
        body: {
          data: {
            actor: { entitySearch: { results: { entities: [{ guid: 'G', accountId: 1 }] } } },
          },
        },
      }
    )
    const app = createApp({
      config: parseConfig({
        NERDGRAPH_URL: 'https://nerdgraph.test/graphql',
        ALLOW_HTTP: 'true',
        ACCOUNT_ID: '1',
      }),
      fetch: upstream.fetch,
    })
    const res = await app.request(
      '/v2/applications/42/metrics/data.xml?names[]=A%26B&from=2015-11-02T14:00:00Z&to=2015-11-02T14:30:00Z',
      { headers: { 'X-Api-Key': DEMO_KEYS.all } }
    )
    expect(await res.text()).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<metric_data_response>',
        '  <metric_data>',
        '    <from>2015-11-02T14:00:00+00:00</from>',
        '    <to>2015-11-02T14:30:00+00:00</to>',
        '    <metrics_not_found>',
        '      <metrics_not_found>A&amp;B</metrics_not_found>',
        '    </metrics_not_found>',
        '    <metrics_found/>',
        '    <metrics/>',
        '  </metric_data>',
        '</metric_data_response>',
        '',
      ].join('\n')
    )
  })
})
