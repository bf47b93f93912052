/**
 * @module cli/doctor-bridge
 * `v2bridge doctor --bridge URL`: checks a deployed v2bridge as a client would see it, with
 * read-only v2 calls: health and readiness, the key (a v2 list), one read per resource family, the
 * account the key acts for and the NRQL of one metric-data call (explain, src/explain/). Creates
 * nothing; explain sends no NerdGraph request but its lookups.
 */
import { Unreachable, whyOf, type DoctorReport } from './doctor'
import { bodyJson, checkKeyTarget, keyFetch, KeyRefused } from './key-transport'

export interface BridgeDoctorOptions {
  key: string
  /** The bridge's base URL, e.g. `https://v2bridge.example.com` (a trailing `/v2` is dropped). */
  bridge: string
  fetch?: typeof fetch
}

/** One read per resource family, after the application list (`{id}`: its first application). A
 * family answered 403 or 404 by a key without that product is reported, not counted as failing
 * the core path. */
const familyReads = [
  ['application', '/v2/applications/{id}.json'],
  ['hosts', '/v2/applications/{id}/hosts.json'],
  ['instances', '/v2/applications/{id}/instances.json'],
  ['metric names', '/v2/applications/{id}/metrics.json?name=HttpDispatcher'],
  [
    'metric data',
    '/v2/applications/{id}/metrics/data.json?names[]=HttpDispatcher&values[]=call_count&summarize=true',
  ],
  ['deployments', '/v2/applications/{id}/deployments.json'],
  ['key transactions', '/v2/key_transactions.json'],
  ['browser applications', '/v2/browser_applications.json'],
  ['mobile applications', '/v2/mobile_applications.json'],
  ['users', '/v2/users.json'],
  ['labels', '/v2/labels.json'],
  ['alerts incidents', '/v2/alerts_incidents.json?only_open=true'],
  ['alerts policies (forwarded to v2)', '/v2/alerts_policies.json'],
] as const

/** Families the core read path needs: a client of v2 lists applications and reads metric data. */
const core = new Set(['application', 'metric data'])

interface Answer {
  status: number
  ms: number
  body: unknown
}

async function get(o: BridgeDoctorOptions, base: string, path: string, headers = {}) {
  const started = Date.now()
  let res: Response
  let body: unknown
  try {
    res = await keyFetch(
      base + path,
      { headers: { 'X-Api-Key': o.key, Accept: 'application/json', ...headers } },
      { timeoutMs: 30_000, what: 'v2bridge at', ...(o.fetch ? { fetch: o.fetch } : {}) }
    )
    body = await bodyJson(res)
  } catch (err) {
    if (err instanceof KeyRefused) throw err
    throw new Unreachable(`v2bridge at ${base} could not be reached (${whyOf(err)})`)
  }
  return { status: res.status, ms: Date.now() - started, body } satisfies Answer
}

/** The v2 error title of an answer, or its status. */
function why(a: Answer): string {
  const title = (a.body as { error?: { title?: unknown } } | undefined)?.error?.title
  return typeof title === 'string' ? `HTTP ${a.status}: ${title}` : `HTTP ${a.status}`
}

export async function doctorBridge(o: BridgeDoctorOptions): Promise<DoctorReport> {
  const base = o.bridge.replace(/\/+$/, '').replace(/\/v2$/, '')
  checkKeyTarget(base, 'v2bridge at') // the key is not sent in clear across a network
  const lines = [`v2bridge doctor → ${base} (a deployed v2bridge)`]
  const say = (check: 'ok' | 'fail' | 'note', text: string) =>
    lines.push(`${check.padEnd(9)} ${text}`)

  const health = await get(o, base, '/healthz')
  const healthy = health.status === 200
  say(healthy ? 'ok' : 'fail', `healthz: ${healthy ? 'answers' : why(health)}`)
  const ready = await get(o, base, '/readyz')
  say(
    ready.status === 200 ? 'ok' : 'fail',
    `readyz: ${ready.status === 200 ? 'ready' : why(ready)}`
  )

  const list = await get(o, base, '/v2/applications.json')
  if (list.status !== 200) {
    const rejected = list.status === 401 || list.status === 403
    say('fail', `${rejected ? 'key rejected' : 'application list failed'} (${why(list)})`)
    return { ok: false, lines }
  }
  const apps = (list.body as { applications?: unknown } | undefined)?.applications
  if (!Array.isArray(apps)) {
    say(
      'fail',
      `${base}/v2/applications.json answered HTTP 200 without a v2 application list: not a v2bridge?`
    )
    return { ok: false, lines }
  }
  say(apps.length ? 'ok' : 'fail', `key accepted: ${apps.length} application(s) on the first page`)
  const first = apps[0] as { id: number; name: string } | undefined
  if (!first) return { ok: false, lines }

  let coreOk = healthy
  const answers = await Promise.all(
    familyReads.map(([, path]) => get(o, base, path.replace('{id}', String(first.id))))
  )
  lines.push('', `one read per resource family (application ${first.id}, ${first.name}):`)
  familyReads.forEach(([family], i) => {
    const a = answers[i]!
    const works = a.status === 200
    if (!works && core.has(family)) coreOk = false
    lines.push(
      `  ${(works ? 'works' : 'fails').padEnd(6)} ${family}: ${works ? `HTTP 200 in ${a.ms} ms` : why(a)}`
    )
  })

  const explained = await get(
    o,
    base,
    `/explain${familyReads[4][1].replace('{id}', String(first.id))}`
  )
  const sent = (
    explained.body as {
      explain?: { nerdgraph?: { variables?: { accountId?: unknown }; nrql?: unknown }[] }
    }
  )?.explain?.nerdgraph?.[0]
  lines.push('')
  if (explained.status === 200 && sent) {
    say('ok', `the key acts for account ${String(sent.variables?.accountId ?? 'unknown')}`)
    const nrql = Array.isArray(sent.nrql) ? sent.nrql : []
    for (const query of nrql) lines.push(`          NRQL: ${String(query)}`)
  } else say('fail', `explain of a metric-data call: ${why(explained)}`)

  lines.push(
    '',
    `core read path (applications and metric data): ${coreOk ? 'works' : 'does not work'}`
  )
  return { ok: coreOk, lines }
}
