/**
 * The hostile NerdGraph and v2 of `npm run bench:hostile`, its own process in front of the
 * simulator's: `node --import tsx bench/hostile-upstream.ts <simulator URL>`. It answers by the key
 * a call carries, so the load process chooses each hostility by key:
 * - `NRAK-BOMB…`: NerdGraph answers a gzip bomb of 10 GiB;
 * - `NRAK-HTML…`: NerdGraph answers an endless 500 `text/html`;
 * - `NRAK-BIG…`: v2 answers 50 MB of JSON (forwarded and compared reads);
 * - `NRAK-DUP…`: v2 answers a list of 20,000 applications with one `id` (compared reads);
 * and NerdGraph answers a `BIG` or `DUP` key as the simulator answers the demo key. Every other
 * call goes to the simulator as it came.
 */
import { DEMO_KEYS } from '../simulator'
import {
  endless,
  gzipBomb,
  hostileUpstream,
  type Call,
  type Hostility,
} from '../test/helpers/hostile-upstream'

const simulator = process.argv[2]!

const duplicates = Buffer.from(
  JSON.stringify({
    applications: Array.from({ length: 20_000 }, () => ({ id: 1, name: 'Same', language: 'java' })),
  })
)
const duplicateList: Hostility = (res) =>
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(duplicates)
const fiftyMB = endless(200, 'application/json', 50, '{"applications":[{"name":"', 'p')

function pick(call: Call): Hostility | undefined {
  const v2 = call.path.startsWith('/v2/')
  if (!v2 && call.key.startsWith('NRAK-BOMB')) return gzipBomb
  if (!v2 && call.key.startsWith('NRAK-HTML')) return endless(500, 'text/html', 2000)
  if (v2 && call.key.startsWith('NRAK-BIG')) return fiftyMB
  if (v2 && call.key.startsWith('NRAK-DUP')) return duplicateList
  return undefined
}

/** A call to the simulator, with the demo key for the keys whose NerdGraph is the simulator's. */
async function toSimulator(req: Request): Promise<Response> {
  const url = new URL(req.url)
  const headers = new Headers()
  for (const name of ['api-key', 'x-api-key', 'content-type', 'accept', 'x-account-id']) {
    const value = req.headers.get(name)
    if (value !== null) headers.set(name, /^NRAK-(BIG|DUP)/.test(value) ? DEMO_KEYS.all : value)
  }
  const init: RequestInit = { method: req.method, headers }
  if (req.method !== 'GET' && req.method !== 'HEAD') init.body = await req.text()
  const answer = await fetch(`${simulator}${url.pathname}${url.search}`, init)
  const type = answer.headers.get('content-type')
  return new Response(await answer.arrayBuffer(), {
    status: answer.status,
    headers: type ? { 'Content-Type': type } : {},
  })
}

const upstream = await hostileUpstream(pick, toSimulator)
setInterval(() => {
  upstream.calls.length = 0 // nothing kept over a run
  upstream.written.length = 0
}, 1000)
console.log(`hostile upstream on ${upstream.url}/`)
