/**
 * @module bench/app
 * `npm run bench:app [-- case iterations]`: v2bridge's own cost per metric-data call, in process and
 * without sockets: `app.fetch` over the call shapes of bench/cases.ts, NerdGraph answered from
 * memory by bench/canned-upstream.ts. Prints µs per call for each case; figures, not pass/fail.
 * Profile with `node --cpu-prof --import tsx bench/app.ts 2 40`.
 */
import { createApp } from '../src/app'
import { parseConfig } from '../src/core/config'
import { nodeBodyDigest, nodeFingerprint } from '../src/node/fingerprint'
import { cannedAnswer } from './canned-upstream'
import { benchCases } from './cases'

const [only, iterations] = process.argv.slice(2)
const defaults = [20_000, 2_000, 40] // per case: small, 10 names, largest

const answers = new Map<string, string>()
const canned = async (_url: unknown, init?: RequestInit) => {
  const body = String(init?.body)
  let answer = answers.get(body)
  if (answer === undefined) answers.set(body, (answer = cannedAnswer(body)))
  return new Response(answer, { headers: { 'content-type': 'application/json' } })
}
const config = parseConfig({
  NERDGRAPH_URL: 'http://canned.invalid/graphql',
  ALLOW_HTTP: 'true',
  ACCOUNT_ID: '1000001',
})
const app = createApp({
  config,
  fetch: canned,
  fingerprint: nodeFingerprint,
  bodyDigest: nodeBodyDigest,
  log: () => {},
})
const bindings = { connectionScheme: 'http', peerAddress: '127.0.0.1' }

async function call(path: string, i: number) {
  const key = `NRAK-BENCH${String(i % 10).padStart(22, '0')}` // ten callers, as in bench:overhead
  const res = await app.fetch(
    new Request(`http://127.0.0.1${path}`, { headers: { 'x-api-key': key } }),
    bindings
  )
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  return (await res.arrayBuffer()).byteLength
}

const cases = benchCases(9045822)
for (const [i, c] of cases.entries()) {
  if (only !== undefined && Number(only) !== i) continue
  const n = Number(iterations ?? defaults[i])
  for (let k = 0; k < Math.min(n, 2_000); k++) await call(c.path, k) // warm the JIT and the caches
  const started = performance.now()
  let bytes = 0
  for (let k = 0; k < n; k++) bytes = await call(c.path, k)
  const us = ((performance.now() - started) / n) * 1000
  console.log(`${c.label.padEnd(38)} ${us.toFixed(1).padStart(9)} µs/call  ${bytes} bytes`)
}
