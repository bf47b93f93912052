-- bench/wrk-keys.lua: wrk's script for the benchmarks (bench/load.ts). Each request carries the next of
-- `keys` API keys (first script argument, default 16), so no two identical reads in flight share a key
-- and v2bridge never coalesces them. Requests are built once, at start. On exit it prints one line of
-- JSON: completed requests, duration, errors and latency percentiles (µs).
local requests = {}
local n = 0

function init(args)
  local count = tonumber(args[1]) or 16
  for i = 1, count do
    requests[i] = wrk.format(nil, nil, { ["X-Api-Key"] = string.format("NRAK-BENCH%022d", i) })
  end
end

function request()
  n = n % #requests + 1
  return requests[n]
end

function done(summary, latency)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"bytes":%d,"connect":%d,"read":%d,"write":%d,"status":%d,' ..
      '"timeout":%d,"p50Us":%d,"p99Us":%d,"meanUs":%.1f}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status,
    e.timeout, latency:percentile(50), latency:percentile(99), latency.mean))
end
