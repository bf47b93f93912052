/** @module simulator/data/apm/fleet — the generated "Fleet Service NNN" apps that fill account 1000001. */
import { PRODUCTION, type AppSpec, type HostSpec } from '../catalog'
import type { AlertSeverity, Language } from '../model'
import { createRandom, type Random } from '../prng'

export const FLEET_SIZE = 420
export const FLEET_FIRST_ID = 9300011
export const FLEET_ID_STEP = 11

const LANGUAGES: readonly Language[] = ['java', 'ruby', 'python', 'nodejs', 'go', 'dotnet']
const SEVERITIES: readonly AlertSeverity[] = [
  'NOT_ALERTING',
  'NOT_ALERTING',
  'NOT_ALERTING',
  'NOT_CONFIGURED',
  'WARNING',
  'CRITICAL',
]

/** Transaction name templates per agent language (the agents' naming schemes). */
const TRANSACTIONS: Record<Language, readonly string[]> = {
  java: ['SpringController/ApiController/', 'Servlet/', 'RestWebService/'],
  ruby: ['Controller/', 'Rack/', 'Sinatra/'],
  python: ['Function/app.views:', 'Function/handlers:'],
  nodejs: ['Expressjs/GET//api/', 'Expressjs/POST//api/', 'Nestjs/'],
  go: ['Go/GET /', 'Go/POST /'],
  dotnet: ['MVC/ApiController/', 'WebAPI/ValuesController/'],
}
const RESOURCES = ['orders', 'users', 'items', 'reports', 'events', 'tokens', 'quotes', 'jobs']
const VENDORS = ['MySQL', 'Postgres', 'MongoDB', 'Redis']
const OPERATIONS = ['select', 'insert', 'update', 'delete']
const EXTERNALS = [
  'auth.internal.example.com',
  'api.partner.example.com',
  'queue.internal.example.com',
  'geo.example.net',
  'storage.internal.example.com',
]
/** java and dotnet run several instances per host; nodejs sometimes two (cluster mode). */
const MAX_INSTANCES: Record<Language, number> = {
  java: 3,
  dotnet: 3,
  nodejs: 2,
  ruby: 1,
  python: 1,
  go: 1,
}
const AGENT_VERSIONS: Record<Language, readonly string[]> = {
  java: ['8.9.1', '8.10.0', '8.12.0'],
  ruby: ['9.7.0', '9.9.0'],
  python: ['9.5.0', '9.7.1'],
  nodejs: ['11.23.0', '12.5.0'],
  go: ['3.33.1', '3.35.0'],
  dotnet: ['10.28.0', '10.32.0'],
}

function distinct(count: number, make: () => string): string[] {
  const out = new Set<string>()
  while (out.size < count) out.add(make())
  return [...out]
}

function fleetApp(random: Random, index: number): AppSpec {
  const language = random.pick(LANGUAGES)
  const number = String(index + 1).padStart(3, '0')
  const hosts: HostSpec[] = Array.from({ length: random.int(1, 4) }, (_, k) => ({
    name: `ip-10-${10 + (index % 40)}-${Math.floor(index / 40)}-${10 + k * 17}.ec2.internal`,
    instances:
      language === 'java' || language === 'dotnet'
        ? random.int(2, 3)
        : random.int(1, MAX_INSTANCES[language]),
  }))
  const versions = AGENT_VERSIONS[language]
  const lo = random.int(0, versions.length - 1)
  const hi = random.int(lo, versions.length - 1)
  return {
    id: FLEET_FIRST_ID + index * FLEET_ID_STEP,
    accountId: PRODUCTION.id,
    name: `Fleet Service ${number}`,
    language,
    alertSeverity: random.pick(SEVERITIES),
    apdexT: random.pick([0.1, 0.25, 0.5, 1]),
    browserApdexT: random.next() < 0.15 ? random.pick([3, 5, 7]) : null,
    queueTime: random.next() < 0.3,
    stoppedDaysAgo: random.next() < 0.04 ? random.between(1, 8) : undefined,
    hosts,
    rpm: Math.round(random.between(5, 400)),
    errorPct: random.between(0, 3),
    satisfied: random.between(0.75, 0.99),
    idle: random.next() < 0.2 ? random.between(0.1, 0.5) : 0,
    latency: random.between(0.02, 0.8),
    otherRatio: random.next() < 0.5 ? random.between(0, 0.4) : 0,
    transactions: distinct(random.int(3, 5), () => {
      return random.pick(TRANSACTIONS[language]) + random.pick(RESOURCES)
    }),
    datastores: distinct(random.int(2, 4), () => {
      return `${random.pick(VENDORS)}/${random.pick(RESOURCES)}/${random.pick(OPERATIONS)}`
    }),
    externals: distinct(random.int(1, 3), () => random.pick(EXTERNALS)),
    agentVersions: [versions[lo] ?? '1.0.0', versions[hi] ?? '1.0.0'],
  }
}

/** The fleet for one seed: same seed, same apps. */
export function fleet(seed: number): AppSpec[] {
  const random = createRandom(seed ^ 0x5eed)
  return Array.from({ length: FLEET_SIZE }, (_, index) => fleetApp(random, index))
}
