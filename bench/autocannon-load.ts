/**
 * @module bench/autocannon-load
 * The fallback load generator of bench/load.ts, in a process of its own so it takes no CPU from the
 * bench's: `node --import tsx bench/autocannon-load.ts url connections seconds keys` loads `url` with
 * autocannon, each request carrying the next of `keys` API keys (as bench/wrk-keys.lua does), and
 * prints one line of JSON (bench/load.ts `LoadResult`).
 */
import autocannon from 'autocannon'

const [url, connections, seconds, keys] = process.argv.slice(2)
const count = Number(keys ?? 16)
const headers = Array.from({ length: count }, (_, i) => ({
  'x-api-key': `NRAK-BENCH${String(i + 1).padStart(22, '0')}`,
}))
let n = 0
const result = await autocannon({
  url: url!,
  connections: Number(connections ?? 10),
  duration: Number(seconds ?? 3),
  timeout: 60,
  requests: [{ setupRequest: (req) => ({ ...req, headers: headers[n++ % count] }) }],
})
const requests = result.requests.total
console.log(
  JSON.stringify({
    requests,
    rps: requests / (result.duration || Number(seconds)),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
  })
)
