/** @module simulator/data/apm/applications — turns an AppSpec into an Application with instances and metrics. */
import type { AppSpec } from '../catalog'
import { metricSpecs, transactionShares } from './metrics'
import type { Account, Application, Instance, Language } from '../model'
import { combine, hashString, nth } from '../prng'
import { MINUTE } from './timeslices'

const HOUR = 3_600_000
const DAY = 86_400_000

/** First agent port per language (java `host:port` naming [doc: query-apm-metric-timeslice-data-nrql.mdx]). */
const BASE_PORT: Record<Language, number> = {
  java: 8080,
  dotnet: 5000,
  nodejs: 3000,
  python: 8000,
  ruby: 3000,
  go: 8080,
}
/** Resident memory range per instance, MB. */
const MEMORY_MB: Record<Language, readonly [number, number]> = {
  java: [900, 1500],
  dotnet: [500, 1000],
  nodejs: [150, 400],
  python: [200, 500],
  ruby: [300, 700],
  go: [200, 350],
}

/** Entity GUID: base64(`accountId|APM|APPLICATION|appId`), standard alphabet, no padding
 * (GUID spec: newrelic/entity-definitions `docs/entities/guid_spec.md`). */
export function apmGuid(accountId: number, appId: number): string {
  return btoa(`${accountId}|APM|APPLICATION|${appId}`).replace(/=+$/, '')
}

export interface BuildContext {
  readonly seed: number
  /** floor_minute(now) when the simulator was created. */
  readonly anchor: number
  readonly now: () => number
  readonly accounts: readonly Account[]
  /** Instance ids already handed out (keeps them unique across apps). */
  readonly instanceIds: Set<string>
}

function instanceId(key: number, taken: Set<string>): string {
  let n = 100_000_000 + (combine(key, 99) % 900_000_000)
  while (taken.has(String(n))) n++
  taken.add(String(n))
  return String(n)
}

function instances(spec: AppSpec, ctx: BuildContext): Instance[] {
  const [lo, hi] = MEMORY_MB[spec.language]
  const raw = spec.hosts.flatMap((host) => {
    const hostKey = hashString(host.name, ctx.seed)
    const cores = [2, 4, 8][Math.floor(nth(hostKey, 1) * 3)] ?? 4
    const short = host.name.split('.')[0] ?? host.name
    return Array.from({ length: host.instances }, (_, k) => {
      const instanceName = `${short}:${BASE_PORT[spec.language] + k}`
      const key = hashString(`${spec.id}|${host.name}|${instanceName}`, ctx.seed)
      return {
        id: instanceId(key, ctx.instanceIds),
        host: host.name,
        hostDisplayName: host.name,
        instanceName,
        activeFrom:
          host.activeHoursAgo === undefined ? null : ctx.anchor - host.activeHoursAgo * HOUR,
        weight: 0.8 + 0.4 * nth(key, 30),
        memoryMb: lo + (hi - lo) * nth(key, 31),
        cores,
        cpuShare: ((0.3 + 0.6 * nth(key, 32)) * 0.9) / host.instances,
        key,
      }
    })
  })
  const total = raw.reduce((sum, i) => sum + i.weight, 0)
  return raw.map((i) => ({ ...i, weight: i.weight / total }))
}

/** Builds one application; `lastReportedAt` follows the clock for reporting apps. */
export function buildApplication(spec: AppSpec, ctx: BuildContext): Application {
  const h = hashString(String(spec.id), ctx.seed)
  const stoppedAt =
    spec.stoppedDaysAgo === undefined
      ? null
      : ctx.anchor - Math.floor((spec.stoppedDaysAgo * DAY) / MINUTE) * MINUTE
  const account = ctx.accounts.find((a) => a.id === spec.accountId)
  const now = ctx.now
  return {
    id: spec.id,
    accountId: spec.accountId,
    name: spec.name,
    guid: apmGuid(spec.accountId, spec.id),
    language: spec.language,
    reporting: stoppedAt === null,
    stoppedAt,
    alertSeverity: spec.alertSeverity,
    apdexT: spec.apdexT,
    browserApdexT: spec.browserApdexT,
    queueTime: spec.queueTime,
    lastReportingChangeAt: stoppedAt ?? ctx.anchor - Math.floor(30 + 60 * nth(h, 1)) * DAY,
    get lastReportedAt() {
      return (stoppedAt ?? Math.floor(now() / MINUTE) * MINUTE) - MINUTE
    },
    agentVersions: { min: spec.agentVersions[0], max: spec.agentVersions[1] },
    hosts: [...new Set(spec.hosts.map((host) => host.name))],
    instances: instances(spec, ctx),
    metrics: metricSpecs(spec, ctx.seed),
    transactions: spec.transactions.map((t) => `WebTransaction/${t}`),
    traffic: {
      rpm: spec.rpm,
      otherRatio: spec.otherRatio,
      errorPct: spec.errorPct,
      satisfied: spec.satisfied,
      idle: spec.idle,
      latency: spec.latency,
      otherLatency: spec.latency * (2 + 4 * nth(h, 2)),
      phase: Math.floor(180 * nth(h, 3)),
      browserRatio: 0.3 + 0.3 * nth(h, 4),
      pageLoad: 1.5 + 2.5 * nth(h, 5),
      txCumulative: transactionShares(spec, ctx.seed),
    },
    tags: [
      { key: 'account', values: [account?.name ?? ''] },
      { key: 'accountId', values: [String(spec.accountId)] },
      { key: 'language', values: [spec.language] },
    ],
  }
}
