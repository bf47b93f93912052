/**
 * @module bench/overhead-memory
 * `node --expose-gc --import tsx bench/overhead-memory.ts [case] [calls]` (default `largest`, 5): the
 * memory one metric-data call takes in v2bridge's Node entry, issue 27 item 3 (peak no larger than
 * twice NerdGraph's answer). v2bridge runs in this process in front of
 * the canned NerdGraph (bench/bridge-on-canned.ts); NerdGraph and the client that reads and drops the answer run
 * in child processes, so their bytes are not counted. Before each call a full collection; during it a
 * worker thread samples the process's resident set every 0.2 ms (the main thread is busy parsing
 * and writing, so it cannot sample itself). Prints NerdGraph's answer and v2's answer in bytes, and
 * per call the peak rise of the resident set over its level before the call, in MB and as a multiple
 * of NerdGraph's answer. The resident set counts what the process holds, collected or not yet, so
 * it is an upper bound of the live bytes: figures, not pass/fail.
 */
import { fork } from 'node:child_process'
import { Worker } from 'node:worker_threads'
import { bridgeOnCanned } from './bridge-on-canned'
import { casePath } from './cases'

if (process.argv[2] === 'client') {
  // The child that asks: one GET per message, the answer read and dropped; replies with its size.
  process.on('message', async (m: { url: string }) => {
    const res = await fetch(m.url, { headers: { 'x-api-key': 'NRAK-MEMORY00000000000000000000' } })
    const bytes = (await res.arrayBuffer()).byteLength
    process.send?.({ status: res.status, bytes })
  })
  process.on('disconnect', () => process.exit(0))
} else {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) throw new Error('run with node --expose-gc --import tsx bench/overhead-memory.ts')
  const which = process.argv[2] ?? 'largest'
  const calls = Number(process.argv[3] ?? 5)
  const path = casePath(which)
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
    const ask = () =>
      new Promise<{ status: number; bytes: number }>((resolve) => {
        client.once('message', resolve)
        client.send({ url: `${server.url}${path}` })
      })
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
    const first = await ask() // warms the code and the caches (account, GUID)
    if (first.status !== 200) throw new Error(`${which}: v2bridge answered ${first.status}`)
    const body = await (await fetch(`${upstreamUrl}/_last`)).text()
    const answer = await fetch(`${upstreamUrl}/graphql`, { method: 'POST', body })
    const upstreamBytes = (await answer.arrayBuffer()).byteLength
    const mb = (n: number) => (n / 1e6).toFixed(1)
    console.log(
      `${which}: NerdGraph's answer ${mb(upstreamBytes)} MB, v2's answer ${mb(first.bytes)} MB`
    )
    const rises: number[] = []
    for (let i = 0; i < calls; i++) {
      gc()
      await new Promise((done) => setTimeout(done, 50))
      const before = process.memoryUsage.rss()
      peak() // resets it
      const { status } = await ask()
      const rise = peak() - before
      rises.push(rise)
      console.log(
        `  call ${i + 1}: status ${status}, resident set rose ${mb(rise)} MB at its peak, ` +
          `${(rise / upstreamBytes).toFixed(2)} × NerdGraph's answer`
      )
    }
    const sorted = [...rises].sort((a, b) => a - b)
    const median = sorted[sorted.length >> 1]!
    console.log(
      `median ${mb(median)} MB, ${(median / upstreamBytes).toFixed(2)} × NerdGraph's answer (target ≤ 2)`
    )
    await sampler.terminate()
    await server.close()
  } finally {
    upstream.kill()
    client.kill()
  }
}
