/** @module simulator/data/apm/metrics — the metric timeslice names each app reports, with their parameters. */
import type { AppSpec } from '../catalog'
import type { MetricKind, MetricSpec } from '../model'
import { hashString, nth } from '../prng'

/** Names every APM app reports [doc: query-apm-metric-timeslice-data-nrql.mdx; REST v2 metric names]. */
const CORE: readonly [string, MetricKind][] = [
  ['HttpDispatcher', 'web'],
  ['WebTransaction', 'web'],
  ['OtherTransaction/all', 'other'],
  ['Apdex', 'apdex'],
  ['Errors/all', 'errors'],
  ['Memory/Physical', 'memory'],
  ['CPU/User Time', 'cpu'],
]

/** Browser monitoring's metrics: one row per app and minute, not per instance. */
const BROWSER_KINDS = new Set<MetricKind>(['endUser', 'endUserApdex', 'endUserErrors', 'browser'])

function spec(
  name: string,
  kind: MetricKind,
  extra: Partial<Pick<MetricSpec, 'scope' | 'tx' | 'callsPerRequest' | 'meanSeconds'>> = {}
): MetricSpec {
  return {
    name,
    kind,
    scope: null,
    tx: 0,
    callsPerRequest: 1,
    meanSeconds: 0,
    key: hashString(name),
    perInstance: !BROWSER_KINDS.has(kind),
    ...extra,
  }
}

/** Which transaction calls the i-th datastore/external (stable per app). */
function scopeIndex(app: AppSpec, i: number, salt: number): number {
  return Math.floor(nth(app.id, salt + i) * app.transactions.length)
}

/** All metric specs of one app: unscoped rollups first, then the scoped Datastore/External copies. */
export function metricSpecs(app: AppSpec, seed: number): MetricSpec[] {
  const out = CORE.map(([name, kind]) => spec(name, kind))
  const transactions = app.transactions.map((t) => `WebTransaction/${t}`)
  transactions.forEach((name, tx) => {
    const weight = 0.3 + 1.7 * nth(hashString(name, seed), 1)
    out.push(spec(name, 'webTx', { tx, meanSeconds: app.latency * weight }))
  })
  const leaves: MetricSpec[] = []
  app.datastores.forEach((d, i) => {
    const name = `Datastore/statement/${d}`
    const h = hashString(name, seed)
    leaves.push(
      spec(name, 'datastore', {
        tx: scopeIndex(app, i, 10),
        callsPerRequest: 1 + Math.floor(nth(h, 2) * 3),
        meanSeconds: 0.001 + 0.019 * nth(h, 3),
      })
    )
  })
  app.externals.forEach((host, i) => {
    const name = `External/${host}/all`
    leaves.push(
      spec(name, 'external', {
        tx: scopeIndex(app, i, 20),
        meanSeconds: 0.04 + 0.36 * nth(hashString(name, seed), 3),
      })
    )
  })
  out.push(...leaves)
  for (const leaf of leaves) out.push({ ...leaf, scope: transactions[leaf.tx] ?? null })
  if (app.queueTime) out.push(spec('WebFrontend/QueueTime', 'queue', { meanSeconds: 0.012 }))
  if (app.browserApdexT !== null) {
    // EndUser/errors (JavaScript errors) and Browser (page views): what v2 computed EndUser
    // `error_percentage` from [doc: migrate-to-nrql.mdx EndUser table].
    out.push(
      spec('EndUser', 'endUser'),
      spec('EndUser/Apdex', 'endUserApdex'),
      spec('EndUser/errors', 'endUserErrors'),
      spec('Browser', 'browser')
    )
  }
  return out
}

/** Cumulative traffic shares of an app's transactions (the last entry is exactly 1). */
export function transactionShares(app: AppSpec, seed: number): number[] {
  const weights = app.transactions.map((t) => 0.2 + nth(hashString(t, seed ^ app.id), 4))
  const sum = weights.reduce((a, b) => a + b, 0)
  let running = 0
  return weights.map((w, i) => {
    running += w
    return i === weights.length - 1 ? 1 : running / sum
  })
}
