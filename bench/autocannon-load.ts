/**
 * @module bench/autocannon-load
 * The fallback load generator of bench/load.ts, in a process of its own so it takes no CPU from the
 * bench's: `node --import tsx bench/autocannon-load.ts url connections seconds keys [path…]` loads
 * `url` with autocannon, request i carrying key i and going to path i (each modulo its count) as
 * bench/wrk-rotate.lua does: `keys` a number n (the bench keys NRAK-BENCH…1 to n) or one API key, no
 * paths for the URL's own. Prints one line of JSON (bench/load.ts `LoadResult`).
 */
import autocannon from 'autocannon'

const [url, connections, seconds, keys, ...paths] = process.argv.slice(2)
const count = Number(keys ?? 16)
const apiKeys = Number.isInteger(count)
  ? Array.from({ length: count }, (_, i) => `NRAK-BENCH${String(i + 1).padStart(22, '0')}`)
  : [keys!]
let n = 0
const result = await autocannon({
  url: url!,
  connections: Number(connections ?? 10),
  duration: Number(seconds ?? 3),
  timeout: 60,
  requests: [
    {
      setupRequest: (req) => {
        const i = n++
        return {
          ...req,
          ...(paths.length ? { path: paths[i % paths.length]! } : {}),
          headers: { ...req.headers, 'x-api-key': apiKeys[i % apiKeys.length]! },
        }
      },
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
