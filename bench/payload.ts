/**
 * @module bench/payload
 * `npm run bench:payload`: for each call shape of bench/cases.ts, the bytes v2bridge receives from
 * NerdGraph (the canned upstream of bench/canned-upstream.ts: every name has data in every slice)
 * against the bytes of its v2 answer, JSON and XML, and the upstream requests per call.
 */
import { createApp } from '../src/app'
import { parseConfig } from '../src/core/config'
import { cannedAnswer } from './canned-upstream'
import { benchCases } from './cases'

let upstreamBytes = 0
let upstreamRequests = 0
const fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
  const answer = cannedAnswer(String(init?.body))
  upstreamBytes += Buffer.byteLength(answer)
  upstreamRequests += 1
  return new Response(answer, { headers: { 'content-type': 'application/json' } })
}) as typeof globalThis.fetch

const app = createApp({
  config: parseConfig({ NERDGRAPH_URL: 'http://upstream.test/graphql', ACCOUNT_ID: '1000001' }),
  fetch,
  log: () => {},
})

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`.padStart(12)
console.log(
  'case'.padEnd(38) +
    'upstream'.padStart(12) +
    'JSON answer'.padStart(13) +
    'up/JSON'.padStart(9) +
    'XML answer'.padStart(13) +
    '  requests'
)
for (const c of benchCases(9045822)) {
  const sizes: number[] = []
  const before = { bytes: upstreamBytes, requests: upstreamRequests }
  for (const format of ['json', 'xml']) {
    const res = await app.request(
      `https://v2bridge.test${c.path.replace('.json?', `.${format}?`)}`,
      {
        headers: { 'X-Api-Key': 'NRAK-PAYLOAD' },
      }
    )
    if (res.status !== 200) throw new Error(`${c.label}: ${res.status} ${await res.text()}`)
    sizes.push(Buffer.byteLength(await res.text()))
  }
  const up = (upstreamBytes - before.bytes) / 2
  console.log(
    c.label.padEnd(38) +
      kb(up) +
      kb(sizes[0]!).padStart(13) +
      (up / sizes[0]!).toFixed(2).padStart(9) +
      kb(sizes[1]!).padStart(13) +
      String((upstreamRequests - before.requests) / 2).padStart(10)
  )
}
