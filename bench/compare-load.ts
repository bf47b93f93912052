/**
 * @module bench/compare-load
 * The fallback load generator of `npm run bench:compare` when wrk is unavailable (bench/load.ts
 * `pickGenerator`), in a process of its own: `node --import tsx bench/compare-load.ts origin key
 * connections seconds path…` loads the paths in turn with autocannon, each request carrying `key`.
 * Prints one line of JSON (bench/load.ts `LoadResult`).
 */
import autocannon from 'autocannon'

const [origin, key, connections, seconds, ...paths] = process.argv.slice(2)
let n = 0
const result = await autocannon({
  url: origin!,
  connections: Number(connections),
  duration: Number(seconds),
  timeout: 60,
  requests: [
    {
      setupRequest: (req) => ({
        ...req,
        path: paths[n++ % paths.length]!,
        headers: { ...req.headers, 'x-api-key': key! },
      }),
    },
  ],
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
