-- bench/wrk-rotate.lua: wrk's script for the benchmarks (bench/load.ts). Arguments: the keys, then the
-- paths the requests go through in turn. The keys are a number n (the bench keys NRAK-BENCH…1 to n, so
-- no two identical reads in flight share a key and v2bridge never coalesces them) or one API key; with
-- no paths, every request goes to the URL's own. Request i carries key i and path i (each modulo its
-- count); the requests are built once, at start. On exit it prints one line of JSON: completed
-- requests, duration, errors and latency percentiles (µs).
local requests = {}
local n = 0

local function gcd(a, b)
  while b ~= 0 do a, b = b, a % b end
  return a
end

function init(args)
  local keys = {}
  local count = tonumber(args[1] or "16")
  if count then
    for i = 1, count do keys[i] = string.format("NRAK-BENCH%022d", i) end
  else
    keys[1] = args[1]
  end
  local paths = {}
  for i = 2, #args do paths[#paths + 1] = args[i] end
  if #paths == 0 then paths[1] = wrk.path end
  local total = #keys * #paths / gcd(#keys, #paths)
  for i = 0, total - 1 do
    local key = keys[i % #keys + 1]
    requests[i + 1] = wrk.format("GET", paths[i % #paths + 1], { ["X-Api-Key"] = key })
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
