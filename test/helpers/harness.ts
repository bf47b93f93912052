/** v2bridge wired to an in-process NerdGraph simulator: no sockets, real GraphQL, real NRQL. */
import { createApp } from '../../src/app'
import { createTelemetry } from '../../src/upstream/telemetry'
import { parseConfig, type ConfigInput } from '../../src/core/config'
import { staticFiles } from '../../src/explorer/static-content'
import { DEMO_KEYS, createSimulator, type SimulatorOptions } from '../../simulator'
import { isTrusted } from '../../src/node/trusted-proxies'
import { parseNodeConfig } from '../../src/node/config'

export { DEMO_KEYS }

export const simulatorUrl = 'http://simulator.test/graphql'

/** `simulator`: the simulator's options, the live limits by default; a test that turns one off
 * names it here (README of simulator/, "How it differs from the live NerdGraph"). */
export function harness(settings: ConfigInput = {}, simulator: SimulatorOptions = {}) {
  const sim = createSimulator(simulator)
  const log: Record<string, unknown>[] = []
  const fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
    sim.fetch(new Request(input, init))) as typeof globalThis.fetch
  const { trustedProxies } = parseNodeConfig(settings) // TRUSTED_PROXIES, as the Node entry reads it
  const app = createApp({
    config: parseConfig({ NERDGRAPH_URL: simulatorUrl, ALLOW_HTTP: 'true', ...settings }),
    fetch,
    log: (line) => log.push(line),
    files: staticFiles,
    telemetry: createTelemetry,
    // As the Node entry: a peer test only when TRUSTED_PROXIES names any. Requests without a peer
    // are Worker-like.
    ...(trustedProxies.length
      ? { trustPeer: (peer: string | undefined) => isTrusted(peer, trustedProxies) }
      : {}),
  })
  /** GET a v2 path with a key (the all-accounts demo key unless given). */
  const get = (path: string, init: RequestInit & { key?: string | null } = {}) => {
    const { key = DEMO_KEYS.all, headers, ...rest } = init
    const h = new Headers(headers)
    if (key !== null && !h.has('x-api-key')) h.set('X-Api-Key', key)
    return app.request(path, { ...rest, headers: h })
  }
  return { sim, app, get, log, dataset: sim.dataset }
}

/** The rows of `nrql` as the simulator's NerdGraph answers it for `accountId` with the all-accounts
 * key (`actor.account.nrql.results`); a GraphQL error fails the call with its messages. */
export async function nrqlRows<Row = Record<string, unknown>>(
  sim: Pick<ReturnType<typeof createSimulator>, 'fetch'>,
  nrql: string,
  accountId = 1000001
): Promise<Row[]> {
  const res = await sim.fetch(
    new Request(simulatorUrl, {
      method: 'POST',
      headers: { 'API-Key': DEMO_KEYS.all, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        query:
          'query($a: Int!, $q: Nrql!) { actor { account(id: $a) { nrql(query: $q) { results } } } }',
        variables: { a: accountId, q: nrql },
      }),
    })
  )
  const body = (await res.json()) as {
    data?: { actor: { account: { nrql: { results: Row[] } } } }
    errors?: { message: string }[]
  }
  if (body.errors) throw new Error(`${nrql}: ${body.errors.map((e) => e.message).join('; ')}`)
  return body.data!.actor.account.nrql.results
}
