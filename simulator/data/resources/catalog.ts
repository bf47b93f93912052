/**
 * @module simulator/data/resources/catalog
 * Key transactions, browser and mobile applications and users, derived from the APM catalog and the
 * seed: the same seed gives the same resources, IDs and names on every run.
 */
import type { AlertSeverity, Application } from '../model'
import { hashString, nth } from '../prng'

/** `acct|DOMAIN|TYPE|id`, standard base64 without padding (GUID spec:
 * newrelic/entity-definitions `docs/entities/guid_spec.md`). */
export function entityGuid(accountId: number, domain: string, type: string, id: number): string {
  return btoa(`${accountId}|${domain}|${type}|${id}`).replace(/=+$/, '')
}

export interface KeyTransaction {
  readonly id: number
  readonly accountId: number
  readonly guid: string
  readonly name: string
  /** `WebTransaction/…` of the parent application. */
  readonly metricName: string
  readonly app: Application
  readonly apdexTarget: number
  readonly browserApdexTarget: number | null
  /** Share of the parent's web traffic through this transaction. */
  readonly share: number
  readonly alertSeverity: AlertSeverity
}

export interface BrowserApp {
  readonly id: number
  readonly accountId: number
  readonly guid: string
  readonly name: string
  /** The APM application that injects the agent, or null for a copy/paste (Lite) install. */
  readonly servingApmApplicationId: number | null
  readonly loaderType: 'LITE' | 'PRO' | 'SPA'
  readonly licenseKey: string
  readonly reporting: boolean
  readonly alertSeverity: AlertSeverity
  readonly apdexTarget: number
}

export interface MobileApp {
  readonly id: number
  readonly accountId: number
  readonly guid: string
  readonly name: string
  readonly reporting: boolean
  readonly alertSeverity: AlertSeverity
  /** Sessions started per minute at the daily peak. */
  readonly sessionsPerMinute: number
  /** Crashes per 100 sessions. */
  readonly crashPct: number
  readonly applicationToken: string
  /** Mean interaction time in seconds (v2 `mobile_summary.interaction_time`); seeded apps only. */
  readonly interactionTime?: number
}

export interface SimUser {
  readonly id: string
  readonly name: string
  readonly email: string
  readonly domain: string
  readonly groups: readonly string[]
}

/** Key transactions: showcase ones by hand, then one for every other fleet application. */
export function keyTransactions(apps: readonly Application[], seed: number): KeyTransaction[] {
  const showcase: [number, number, string][] = [
    [9045822, 0, 'Checkout: place order'],
    [9045822, 2, 'Payments: authorize'],
    [9045837, 1, 'Storefront: product page'],
    [9045851, 0, 'Recommendations for user'],
    [9045866, 1, 'Cart: add item'],
    [9045874, 1, 'Inventory: reserve'],
    [9702201, 0, 'Checkout (staging): place order'],
  ]
  const byId = new Map(apps.map((a) => [a.id, a]))
  const picks = showcase.flatMap(([appId, tx, name]) => {
    const app = byId.get(appId)
    return app ? [{ app, tx, name }] : []
  })
  apps
    .filter((a) => a.name.startsWith('Fleet Service') && a.transactions.length > 0)
    .filter((_, i) => i % 2 === 0)
    .forEach((app) =>
      picks.push({ app, tx: 0, name: `${app.name}: ${shortTx(app.transactions[0]!)}` })
    )
  return picks.map(({ app, tx, name }, i) => {
    const h = hashString(`kt:${app.id}:${tx}`, seed)
    const id = 2247001 + i * 7
    const c = app.traffic.txCumulative
    return {
      id,
      accountId: app.accountId,
      guid: entityGuid(app.accountId, 'EXT', 'KEY_TRANSACTION', id),
      name,
      metricName: app.transactions[tx] ?? app.transactions[0]!,
      app,
      apdexTarget: Math.round(app.apdexT * (0.5 + nth(h, 1)) * 100) / 100,
      browserApdexTarget: app.browserApdexT,
      share: (c[tx] ?? 1) - (tx > 0 ? (c[tx - 1] ?? 0) : 0),
      alertSeverity: app.reporting ? app.alertSeverity : 'NOT_CONFIGURED',
    }
  })
}

function shortTx(metricName: string): string {
  return metricName.split('/').slice(-1)[0] || metricName
}

/** A 40-hex-character key in the shape of a browser license key (stable per seed and id). */
export function licenseKeyFor(seed: number, id: number): string {
  let out = ''
  for (let k = 0; out.length < 10; k++) {
    out += (hashString(`license:${id}:${k}`, seed) >>> 0).toString(16).padStart(8, '0')
  }
  return out.slice(0, 10)
}

/** Browser applications: one per APM application with browser monitoring, and two Lite installs. */
export function browserApps(apps: readonly Application[], seed: number): BrowserApp[] {
  const injected = apps
    .filter((a) => a.browserApdexT !== null)
    .map((app, i) => ({
      id: 204261628 + i * 13,
      accountId: app.accountId,
      name: app.name,
      servingApmApplicationId: app.id as number | null,
      loaderType: 'SPA' as const,
      reporting: app.reporting,
      alertSeverity: app.alertSeverity,
      apdexTarget: app.browserApdexT ?? 7,
    }))
  const lite = [
    { id: 204261001, accountId: 1000001, name: 'Marketing Site' },
    { id: 204261002, accountId: 1000002, name: 'Docs Portal (staging)' },
  ].map((b) => ({
    ...b,
    servingApmApplicationId: null,
    loaderType: 'LITE' as const,
    reporting: true,
    alertSeverity: 'NOT_CONFIGURED' as const,
    apdexTarget: 7,
  }))
  return [...injected, ...lite].map((b) => ({
    ...b,
    guid: entityGuid(b.accountId, 'BROWSER', 'APPLICATION', b.id),
    licenseKey: licenseKeyFor(seed, b.accountId),
  }))
}

export function mobileApps(seed: number): MobileApp[] {
  const specs: [number, number, string, number, number, boolean, number][] = [
    [601483762, 1000001, 'Shop iOS', 320, 0.9, true, 0.298],
    [601483779, 1000001, 'Shop Android', 410, 1.4, true, 0.412],
    [601483791, 1000001, 'Courier App (Android)', 45, 2.6, true, 0.655],
    [601483805, 1000001, 'Legacy Shop (iOS 12)', 0, 0, false, 0],
    [601484110, 1000002, 'Shop iOS (beta)', 12, 3.1, true, 0.371],
  ]
  return specs.map(([id, accountId, name, sessionsPerMinute, crashPct, reporting, seconds]) => ({
    id,
    accountId,
    guid: entityGuid(accountId, 'MOBILE', 'APPLICATION', id),
    name,
    reporting,
    alertSeverity: reporting ? 'NOT_ALERTING' : 'NOT_CONFIGURED',
    sessionsPerMinute,
    crashPct,
    applicationToken: `AA${licenseKeyFor(seed, id)}${licenseKeyFor(seed, id + 1)}-NRMA`,
    interactionTime: seconds,
  }))
}

/** Contractors provisioned by SCIM: more users than one NerdGraph page (USERS_PAGE) and one v2 page
 * (200), so both walks are exercised; every seventh has read-only access. */
const CONTRACTORS = Array.from({ length: 250 }, (_, i) => {
  const n = String(i + 1).padStart(3, '0')
  const groups = i % 7 === 6 ? ['Read Only'] : ['User']
  return [
    `10002${n.padStart(5, '0')}`,
    `Contractor ${n}`,
    `contractor${n}@contract.example.net`,
    'Contractors (SCIM)',
    groups,
  ]
})

/** The account owner (v2 user `role: owner`, original user model): Dana Owner. */
export const OWNER_USER_ID = '1000123456'

/** The organization's users (user management model), in three authentication domains. */
export const USERS: readonly SimUser[] = [
  ['1000123456', 'Dana Owner', 'dana.owner@example.com', 'Default', ['Admin']],
  ['1000123457', 'Adam Admin', 'adam.admin@example.com', 'Default', ['Admin', 'User']],
  ['1000123458', 'Any User', 'any.user@example.com', 'Default', ['User']],
  ['1000123459', 'Rita Readonly', 'rita@example.org', 'Default', ['Read Only']],
  ['1000123460', 'Sam', 'sam.sso@example.com', 'Okta SSO', ['User']],
  ['1000123461', 'Oscar de la Vega', 'oscar.vega@example.com', 'Okta SSO', []],
  ...CONTRACTORS,
].map(([id, name, email, domain, groups]) => ({
  id: id as string,
  name: name as string,
  email: email as string,
  domain: domain as string,
  groups: groups as string[],
}))
