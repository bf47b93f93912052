-- bench/compare-wrk.lua: wrk's script for `npm run bench:compare` (bench/compare.ts). Arguments: the API key
-- every request carries, then the paths the requests go through in turn (built once, at start). On exit it
-- prints one line of JSON as bench/wrk-keys.lua does.
local requests = {}
local n = 0

function init(args)
  for i = 2, #args do
    requests[#requests + 1] = wrk.format("GET", args[i], { ["X-Api-Key"] = args[1] })
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
