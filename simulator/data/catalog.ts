/** @module simulator/data/catalog — the fixed, readable part of the dataset: accounts and showcase apps. */
import type { Account, AlertSeverity, Language } from './model'

export const PRODUCTION: Account = { id: 1000001, name: 'Demo Production' }
export const STAGING: Account = { id: 1000002, name: 'Demo Staging' }
export const ACCOUNTS: readonly Account[] = [PRODUCTION, STAGING]

export interface HostSpec {
  readonly name: string
  readonly instances: number
  /** The host started reporting this many hours before the simulator started. */
  readonly activeHoursAgo?: number
}

/** Input to the dataset builder; the fleet generator produces the same shape. */
export interface AppSpec {
  readonly id: number
  readonly accountId: number
  readonly name: string
  readonly language: Language
  readonly alertSeverity: AlertSeverity
  readonly apdexT: number
  readonly browserApdexT: number | null
  readonly queueTime: boolean
  /** Not reporting: stopped this many days before the simulator started. */
  readonly stoppedDaysAgo?: number
  readonly hosts: readonly HostSpec[]
  readonly rpm: number
  readonly errorPct: number
  readonly satisfied: number
  readonly idle: number
  readonly latency: number
  readonly otherRatio: number
  /** After `WebTransaction/`. */
  readonly transactions: readonly string[]
  /** After `Datastore/statement/`: `<vendor>/<table>/<operation>`. */
  readonly datastores: readonly string[]
  /** External host names (`External/<host>/all`). */
  readonly externals: readonly string[]
  readonly agentVersions: readonly [string, string]
}

const prod = { accountId: PRODUCTION.id, idle: 0, otherRatio: 0.1 } as const
const stg = { accountId: STAGING.id, alertSeverity: 'NOT_CONFIGURED', queueTime: false } as const

/** Account 1000001: one showcase app per agent language. */
export const SHOWCASE: readonly AppSpec[] = [
  {
    ...prod,
    id: 9045822,
    name: 'Checkout Service (java)',
    language: 'java',
    alertSeverity: 'CRITICAL',
    apdexT: 0.5,
    browserApdexT: 7,
    queueTime: true,
    hosts: [
      { name: 'web-01.prod.example.com', instances: 3 },
      { name: 'web-02.prod.example.com', instances: 2 },
      { name: 'ip-10-0-1-17.ec2.internal', instances: 2 },
    ],
    rpm: 1800,
    errorPct: 6,
    satisfied: 0.8,
    latency: 0.32,
    transactions: [
      'SpringController/CartController/checkout',
      'SpringController/CartController/view',
      'SpringController/PaymentController/authorize',
      'Servlet/HealthCheckServlet',
    ],
    datastores: ['Postgres/orders/insert', 'Postgres/orders/select', 'Redis/cart/select'],
    externals: ['payments.stripe.example.com', 'fraud-check.internal.example.com'],
    agentVersions: ['8.10.0', '8.12.0'],
  },
  {
    ...prod,
    id: 9045837,
    name: 'Storefront (ruby)',
    language: 'ruby',
    alertSeverity: 'WARNING',
    apdexT: 0.4,
    browserApdexT: 4,
    queueTime: true,
    hosts: [
      { name: 'ip-10-0-2-31.ec2.internal', instances: 1 },
      { name: 'ip-10-0-2-32.ec2.internal', instances: 1 },
      { name: 'ip-10-0-2-45.ec2.internal', instances: 1, activeHoursAgo: 30 },
    ],
    rpm: 950,
    errorPct: 2.5,
    satisfied: 0.9,
    latency: 0.21,
    transactions: [
      'Controller/products/index',
      'Controller/products/show',
      'Controller/search/index',
      'Controller/sessions/create',
    ],
    datastores: ['MySQL/products/select', 'MySQL/sessions/insert', 'Redis/page_cache/select'],
    externals: ['search.internal.example.com'],
    agentVersions: ['9.9.0', '9.9.0'],
  },
  {
    ...prod,
    id: 9045851,
    name: 'Recommendations API (python)',
    language: 'python',
    alertSeverity: 'NOT_ALERTING',
    apdexT: 0.3,
    browserApdexT: null,
    queueTime: false,
    hosts: [
      { name: 'ip-10-0-1-17.ec2.internal', instances: 1 },
      { name: 'ml-01.prod.example.com', instances: 1 },
      { name: 'ml-02.prod.example.com', instances: 1 },
    ],
    rpm: 600,
    errorPct: 0.4,
    satisfied: 0.95,
    latency: 0.12,
    otherRatio: 0.2,
    transactions: [
      'Function/recommendations.views:for_user',
      'Function/recommendations.views:similar_items',
      'Function/recommendations.views:health',
    ],
    datastores: ['MongoDB/user_profiles/select', 'Redis/embeddings/select'],
    externals: ['feature-store.internal.example.com'],
    agentVersions: ['9.6.0', '9.7.1'],
  },
  {
    ...prod,
    id: 9045866,
    name: 'Cart Gateway (nodejs)',
    language: 'nodejs',
    alertSeverity: 'NOT_ALERTING',
    apdexT: 0.2,
    browserApdexT: 3,
    queueTime: false,
    hosts: [
      { name: 'node-01.prod.example.com', instances: 2 },
      { name: 'node-02.prod.example.com', instances: 2 },
      { name: 'node-03.prod.example.com', instances: 1 },
      { name: 'node-04.prod.example.com', instances: 1 },
    ],
    rpm: 2400,
    errorPct: 0.8,
    satisfied: 0.93,
    latency: 0.045,
    otherRatio: 0.05,
    transactions: [
      'Expressjs/GET//api/cart',
      'Expressjs/POST//api/cart/items',
      'Expressjs/DELETE//api/cart/items/:id',
      'Expressjs/GET//api/cart/summary',
      'Expressjs/GET//healthz',
    ],
    datastores: ['Redis/carts/select', 'Redis/carts/update', 'Postgres/promotions/select'],
    externals: ['checkout-service.internal.example.com', 'inventory.internal.example.com'],
    agentVersions: ['12.5.0', '12.5.0'],
  },
  {
    ...prod,
    id: 9045874,
    name: 'Inventory Worker (go)',
    language: 'go',
    alertSeverity: 'NOT_CONFIGURED',
    apdexT: 0.5,
    browserApdexT: null,
    queueTime: false,
    stoppedDaysAgo: 2,
    hosts: [
      { name: 'worker-01.prod.example.com', instances: 1 },
      { name: 'worker-02.prod.example.com', instances: 1 },
      { name: 'worker-03.prod.example.com', instances: 1 },
    ],
    rpm: 300,
    errorPct: 1.2,
    satisfied: 0.97,
    latency: 0.03,
    otherRatio: 0.7,
    transactions: ['Go/GET /inventory/{sku}', 'Go/POST /inventory/reserve', 'Go/GET /healthz'],
    datastores: ['Postgres/stock_levels/select', 'Postgres/stock_levels/update'],
    externals: ['warehouse-api.partner.example.com'],
    agentVersions: ['3.35.0', '3.35.0'],
  },
  {
    ...prod,
    id: 9045893,
    name: 'Billing Portal (dotnet)',
    language: 'dotnet',
    alertSeverity: 'WARNING',
    apdexT: 1,
    browserApdexT: null,
    queueTime: true,
    hosts: [
      { name: 'win-web-01.prod.example.com', instances: 3 },
      { name: 'win-web-02.prod.example.com', instances: 3 },
      { name: 'win-web-03.prod.example.com', instances: 3 },
      { name: 'win-web-04.prod.example.com', instances: 3 },
    ],
    rpm: 420,
    errorPct: 1.5,
    satisfied: 0.86,
    idle: 0.2,
    latency: 0.6,
    transactions: [
      'MVC/InvoicesController/Index',
      'MVC/InvoicesController/Download',
      'MVC/PaymentsController/Create',
      'MVC/AccountController/Login',
      'ASP/default.aspx',
    ],
    datastores: ['Postgres/invoices/select', 'Postgres/payments/insert', 'Redis/sessions/select'],
    externals: ['payments.stripe.example.com', 'pdf-renderer.internal.example.com'],
    agentVersions: ['10.30.0', '10.32.0'],
  },
]

/** Account 1000002: a small staging environment. */
export const STAGING_APPS: readonly AppSpec[] = [
  ['Checkout Service (staging)', 9702201, 'java', 'stg-web-01.staging.example.com', 2],
  ['Storefront (staging)', 9702214, 'ruby', 'stg-web-02.staging.example.com', 1],
  ['Cart Gateway (staging)', 9702227, 'nodejs', 'stg-node-01.staging.example.com', 1],
  ['Billing Portal (staging)', 9702239, 'dotnet', 'stg-win-01.staging.example.com', 2],
  ['Search Indexer (staging)', 9702246, 'python', 'stg-worker-01.staging.example.com', 1],
].map(([name, id, language, host, instances]) => {
  const twin = SHOWCASE.find((app) => app.language === language) ?? SHOWCASE[0]!
  return {
    ...twin,
    ...stg,
    id: id as number,
    name: name as string,
    hosts: [{ name: host as string, instances: instances as number }],
    rpm: Math.round(twin.rpm / 20),
    idle: language === 'python' ? 0.6 : 0.1,
    stoppedDaysAgo: undefined,
  }
})
