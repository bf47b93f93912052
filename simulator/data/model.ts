/** @module simulator/data/model — the shapes of the synthetic catalog (accounts, apps, instances, metrics). */

export type Language = 'java' | 'ruby' | 'python' | 'nodejs' | 'go' | 'dotnet'

/** NerdGraph enum `EntityAlertSeverity` [schema]. */
export type AlertSeverity = 'CRITICAL' | 'WARNING' | 'NOT_ALERTING' | 'NOT_CONFIGURED'

export interface Account {
  readonly id: number
  readonly name: string
}

/** How a metric's row is computed from an instance's minute (see apm/timeslices.ts). */
export type MetricKind =
  | 'web'
  | 'webTx'
  | 'other'
  | 'apdex'
  | 'errors'
  | 'memory'
  | 'cpu'
  | 'datastore'
  | 'external'
  | 'queue'
  | 'endUser'
  | 'endUserApdex'
  | 'endUserErrors'
  | 'browser'

export interface MetricSpec {
  readonly name: string
  /** null for the unscoped rollup; else the WebTransaction name the calls are made from. */
  readonly scope: string | null
  readonly kind: MetricKind
  /** webTx: its index; datastore/external: index of the transaction that makes the calls. */
  readonly tx: number
  /** datastore/external: calls per request of the scoping transaction. */
  readonly callsPerRequest: number
  /** Mean call duration in seconds (duration kinds). */
  readonly meanSeconds: number
  /** Hash of the metric name (scoped copies share it, so they carry the unscoped values). */
  readonly key: number
  /** false: one row per app and minute, on the app's first instance (EndUser, EndUser/Apdex,
   * EndUser/errors, Browser). */
  readonly perInstance: boolean
}

export interface Instance {
  /** AgentEnvironmentApplicationInstanceDetails.id (a string of digits). */
  readonly id: string
  readonly host: string
  readonly hostDisplayName: string
  /** `shortHost:port`, e.g. `web-01:8080`. */
  readonly instanceName: string
  /** First minute this instance reports (epoch ms), or null when it reported all along. */
  readonly activeFrom: number | null
  /** Share of the app's traffic this instance serves (the app's weights sum to 1). */
  readonly weight: number
  readonly memoryMb: number
  readonly cores: number
  /** Upper bound of the CPU fraction this instance may use on its host. */
  readonly cpuShare: number
  readonly key: number
}

/** Per-app traffic profile that drives the formulas. */
export interface Traffic {
  /** Requests per minute at the daily peak, whole app. */
  readonly rpm: number
  readonly otherRatio: number
  /** Error percentage of all calls. */
  readonly errorPct: number
  /** Fraction of web calls satisfied (apdex). */
  readonly satisfied: number
  /** Probability that an instance is idle in a minute (0 = never). */
  readonly idle: number
  /** Mean web transaction duration, seconds. */
  readonly latency: number
  readonly otherLatency: number
  /** Diurnal phase shift, minutes. */
  readonly phase: number
  /** Page loads per web request (browser apps). */
  readonly browserRatio: number
  /** Mean page load time, seconds (browser apps). */
  readonly pageLoad: number
  /** Normalized traffic shares of the WebTransaction/* metrics, cumulative (last = 1). */
  readonly txCumulative: readonly number[]
}

export interface Application {
  readonly id: number
  readonly accountId: number
  readonly name: string
  /** base64(`accountId|APM|APPLICATION|id`), no padding. */
  readonly guid: string
  readonly language: Language
  readonly reporting: boolean
  /** Epoch ms of the first minute without data, for apps that stopped reporting. */
  readonly stoppedAt: number | null
  readonly alertSeverity: AlertSeverity
  /** Apdex T, seconds. */
  readonly apdexT: number
  /** Browser (EndUser) apdex T, seconds; null for apps without browser monitoring. */
  readonly browserApdexT: number | null
  /** Epoch ms from which a settings update's `browserApdexT` holds; rows recorded before it keep
   * the T they were recorded with (`browserApdexTAt` in apm/timeslices.ts). */
  readonly browserApdexTSince?: number
  readonly queueTime: boolean
  readonly lastReportingChangeAt: number
  /** Start of the last minute with data (epoch ms); moves with the clock for reporting apps. */
  readonly lastReportedAt: number
  readonly agentVersions: { readonly min: string; readonly max: string }
  readonly hosts: readonly string[]
  readonly instances: readonly Instance[]
  readonly metrics: readonly MetricSpec[]
  /** Names of the WebTransaction/* metrics, in traffic order. */
  readonly transactions: readonly string[]
  readonly traffic: Traffic
  readonly tags: readonly { readonly key: string; readonly values: readonly string[] }[]
}
