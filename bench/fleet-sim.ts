/**
 * The fleet bench's NerdGraph in a process of its own (bench/fleet.ts): the simulator with its live
 * limits and 10 more applications in STAGING, every request's NRQL counted on its way in
 * (bench/fleet-observe.ts). `GET /_fleet/counts` answers the counts: NRQL per account and user, their
 * peaks in any 60 s, and the identical-query peak per user. Prints `fleet simulator on <url>`.
 */
import { serve } from '@hono/node-server'
import { createSimulator, FLEET_KEYS } from '../simulator'
import { Counter, observeNerdGraph, type NerdGraphKey } from './fleet-observe'

const sim = createSimulator({ stagingFleet: Number(process.argv[2] ?? 10) })
const counter = new Counter()
const keys = new Map<string, NerdGraphKey>(FLEET_KEYS.map((k) => [k.key, k]))
const observed = observeNerdGraph(keys, counter, (req) => sim.fetch(req))

function counts() {
  const rows: Record<string, { nrql: number; peak: number; identicalPeak: number }> = {}
  const users = (ids: number[]) => Math.max(0, ...ids.map((u) => counter.peakOf(`same ${u} `)))
  for (const id of new Set(FLEET_KEYS.map((k) => k.accountId))) {
    const ofAccount = FLEET_KEYS.filter((k) => k.accountId === id).map((k) => k.userId)
    rows[`account ${id}`] = {
      nrql: counter.count(`nrql ${id}`),
      peak: counter.peak(`nrql ${id}`),
      identicalPeak: users(ofAccount),
    }
  }
  for (const id of new Set(FLEET_KEYS.map((k) => k.userId))) {
    rows[`user ${id}`] = {
      nrql: counter.count(`nrql-user ${id}`),
      peak: counter.peak(`nrql-user ${id}`),
      identicalPeak: users([id]),
    }
  }
  return rows
}

serve(
  {
    fetch: (req) =>
      new URL(req.url).pathname === '/_fleet/counts' ? Response.json(counts()) : observed(req),
    hostname: '127.0.0.1',
    port: 0,
  },
  (info) => console.log(`fleet simulator on http://127.0.0.1:${info.port}/graphql`)
)
