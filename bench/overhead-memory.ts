/**
 * @module bench/overhead-memory
 * `npm run bench:memory [-- case calls atOnce]` (default `largest`, 5, 16): the memory a metric-data
 * call takes in v2bridge's Node entry (the goal: a peak no larger than twice NerdGraph's answer).
 * v2bridge runs in this process in front of the canned NerdGraph (bench/bridge-on-canned.ts); NerdGraph and the client that reads and drops the answers run in
 * child processes, so their bytes are not counted. A worker thread samples the process's resident
 * set every 0.2 ms (the main thread is busy parsing and writing, so it cannot sample itself).
 *
 * Two figures, in MB and as a multiple of NerdGraph's answer:
 * - **Held by one call** at its worst moment, `calls` times: what the call keeps reachable, counted
 *   after a full collection (V8 heap in use plus array buffers, over the idle level). Collections run
 *   every millisecond while the call reads NerdGraph's answer (it yields between chunks), and once
 *   more inside the renderer as it returns the v2 answer's bytes, when the parsed answer and the
 *   bytes are both alive (`renderers.json.bytes` is wrapped for that). The call runs slower so, and
 *   the figure is exact at those moments: the goal is read against it.
 * - **At once**: `atOnce` calls in flight together, three times, in a process warmed by small calls
 *   only; the peak rise of the resident set over that idle level, divided by `atOnce`. This is what
 *   each call costs a server under load with V8's default heap sizing, garbage not yet collected
 *   included: V8 sizes its heap for throughput (Node docs, "--max-semi-space-size"; the young
 *   generation alone reaches about 34 MB here), so it says more about the collector than the call.
 * Figures, not pass/fail.
 */
import { fork } from 'node:child_process'
import { Worker } from 'node:worker_threads'
import { renderers } from '../src/http/render'
import { bridgeOnCanned } from './bridge-on-canned'
import { casePath } from './cases'
import { median } from './load'

if (process.argv[2] === 'client') {
  // The child that asks: `n` GETs at once per message (each its own key, so none is coalesced), the
  // answers read and dropped; replies with the first failed one, else the first one.
  process.on('message', async (m: { url: string; n: number }) => {
    const answers = await Promise.all(
      Array.from({ length: m.n }, async (_, i) => {
        const key = `NRAK-MEMORY${String(i).padStart(19, '0')}`
        const res = await fetch(m.url, { headers: { 'x-api-key': key } })
        return { status: res.status, bytes: (await res.arrayBuffer()).byteLength }
      })
    )
    process.send?.(answers.find((a) => a.status !== 200) ?? answers[0])
  })
  process.on('disconnect', () => process.exit(0))
} else {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) throw new Error('run with node --expose-gc --import tsx bench/overhead-memory.ts')
  const which = process.argv[2] ?? 'largest'
  const calls = Number(process.argv[3] ?? 5)
  const atOnce = Number(process.argv[4] ?? 16)
  const child = (...args: string[]) =>
    fork(new URL(args[0]!, import.meta.url).pathname, args.slice(1), {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    })
  const client = child('./overhead-memory.ts', 'client')
  const { server, upstream, upstreamUrl } = await bridgeOnCanned().catch((err: unknown) => {
    client.kill()
    throw err
  })
  try {
    const ask = async (path: string, n = 1) => {
      const answer = await new Promise<{ status: number; bytes: number }>((resolve) => {
        client.once('message', resolve)
        client.send({ url: `${server.url}${path}`, n })
      })
      if (answer.status !== 200) throw new Error(`${path}: v2bridge answered ${answer.status}`)
      return answer
    }
    // The resident set's peak since the last reset, sampled off the main thread every 0.2 ms (a
    // timer cannot go below 1 ms; the sampler sleeps on Atomics.wait instead).
    const shared = new Float64Array(new SharedArrayBuffer(16))
    const sampler = new Worker(
      `const { workerData } = require('node:worker_threads')
       const peak = new Float64Array(workerData), sleep = new Int32Array(new SharedArrayBuffer(4))
       for (;;) {
         peak[0] = Math.max(peak[0], process.memoryUsage.rss())
         Atomics.wait(sleep, 0, 0, 0.2)
       }`,
      { eval: true, workerData: shared.buffer }
    )
    const peak = () => {
      const value = shared[0]!
      shared[0] = 0
      return value
    }
    const idle = async () => {
      gc()
      await new Promise((done) => setTimeout(done, 50))
      const level = process.memoryUsage.rss()
      peak() // resets it
      return level
    }
    const mb = (n: number) => (n / 1e6).toFixed(1)
    const path = casePath(which)

    // Warm the code and the caches (account, GUID) with small calls, which hold little.
    for (let i = 0; i < 50; i++) await ask(casePath('small'))
    const before = await idle()
    let bytes = 0
    for (let round = 0; round < 3; round++) bytes = (await ask(path, atOnce)).bytes
    const each = (peak() - before) / atOnce
    const sent = await (await fetch(`${upstreamUrl}/_last`)).text()
    const answer = await fetch(`${upstreamUrl}/graphql`, { method: 'POST', body: sent })
    const upstreamBytes = (await answer.arrayBuffer()).byteLength
    const times = (n: number) => `${(n / upstreamBytes).toFixed(2)} × NerdGraph's answer`
    console.log(`${which}: NerdGraph's answer ${mb(upstreamBytes)} MB, v2's answer ${mb(bytes)} MB`)
    console.log(
      `${atOnce} calls at once, 3 times: resident set rose ${mb(each * atOnce)} MB at its peak, ` +
        `${mb(each)} MB a call, ${times(each)}`
    )

    // Held by one call: collections every millisecond and at the end of rendering.
    const held = () => {
      gc()
      const m = process.memoryUsage()
      return m.heapUsed + m.arrayBuffers
    }
    let worst = 0
    let base = 0
    const json = renderers.json as { bytes: typeof renderers.json.bytes }
    const render = json.bytes
    json.bytes = (body) => {
      const bytes = render(body)
      worst = Math.max(worst, held() - base)
      return bytes
    }
    const holds: number[] = []
    await ask(path) // lets go of what the calls at once left
    for (let i = 0; i < calls; i++) {
      base = held()
      worst = 0
      const timer = setInterval(() => (worst = Math.max(worst, held() - base)), 1)
      await ask(path)
      clearInterval(timer)
      holds.push(worst)
    }
    json.bytes = render
    const typical = median(holds)
    console.log(
      `held by one call at its worst moment, ${calls} times: ${holds.map(mb).join(' / ')} MB, ` +
        `median ${mb(typical)} MB, ${times(typical)} (target ≤ 2)`
    )
    await sampler.terminate()
    await server.close()
  } finally {
    upstream.kill()
    client.kill()
  }
}
