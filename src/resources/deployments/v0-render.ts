/**
 * @module resources/deployments/v0-render
 * Answers of the legacy deployments API v0 (pure). Success is Rails' typed, dasherized `to_xml` of
 * the deployment record, keys in alphabetical order (the recorded fixture of the pyrelic client;
 * newrelic/newrelic_api `README-old.rdoc` "Deployment Notifications"); the `avg-*` figures v0
 * computed after a deployment do not exist in NerdGraph and are nil [INFERRED]. Errors are Rails'
 * `<errors><error>…</error></errors>`, which the Ruby agent reads as `errors/error`.
 */
import type { V2Error } from '../../core/errors'
import { renderers } from '../../http/render'
import { escapeXml } from '../../http/render/xml'
import { formatTime } from '../../core/time-range'

type Typed = ['integer' | 'float' | 'datetime' | 'string', string | number | null]

export interface V0Record {
  accountId: number
  appId: number
  id: number
  revision: string
  changelog: string | null
  description: string | null
  user: string | null
  timestamp: number
}

const nilIntegers = ['avg-apdex-f', 'avg-apdex-s', 'avg-apdex-t'] as const
const nilEndUser = [
  'avg-enduser-apdex-f',
  'avg-enduser-apdex-s',
  'avg-enduser-apdex-t',
  'avg-enduser-apdex-threshold',
] as const
const nilFloats = ['avg-cpu', 'avg-db'] as const
const nilEndUserFloats = ['avg-enduser-rt', 'avg-enduser-throughput', 'avg-errors'] as const
const nilLastFloats = ['avg-memory', 'avg-rt', 'avg-throughput'] as const

/** Every field of the v0 record, in Rails' alphabetical order. */
function fields(r: V0Record): [string, Typed][] {
  const nil =
    (type: Typed[0]) =>
    (name: string): [string, Typed] => [name, [type, null]]
  return [
    ['account-id', ['integer', r.accountId]],
    ['agent-id', ['integer', r.appId]],
    ...nilIntegers.map(nil('integer')),
    ['avg-apdex-threshold', ['float', null]],
    ...nilFloats.map(nil('float')),
    // integer, unlike `avg-apdex-threshold` (the pyrelic fixture, `NOTIFY_DEPLOYMENT_SUCCESS`)
    ...nilEndUser.map(nil('integer')),
    ...nilEndUserFloats.map(nil('float')),
    ...nilLastFloats.map(nil('float')),
    ['changelog', ['string', r.changelog]],
    ['description', ['string', r.description]],
    ['end-time', ['datetime', null]],
    ['id', ['integer', r.id]],
    ['revision', ['string', r.revision]],
    ['timestamp', ['datetime', formatTime(r.timestamp)]],
    ['user', ['string', r.user]],
  ]
}

export function v0Xml(r: V0Record): string {
  const lines = fields(r).map(([name, [type, value]]) => {
    const attrs =
      (type === 'string' ? '' : ` type="${type}"`) + (value === null ? ' nil="true"' : '')
    const text = value === null ? '' : escapeXml(String(value))
    return `  <${name}${attrs}>${text}</${name}>`
  })
  return `<?xml version="1.0" encoding="UTF-8"?>\n<deployment>\n${lines.join('\n')}\n</deployment>\n`
}

/** `.json`: the same record, underscored ([UNCONFIRMED] proposal for the unverified `.json`
 * variant). */
export function v0Json(r: V0Record): string {
  const entries = fields(r).map(([name, [, value]]) => [name.replace(/-/g, '_'), value])
  return JSON.stringify({ deployment: Object.fromEntries(entries) })
}

export function v0ErrorXml(message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<errors>\n  <error>${escapeXml(message)}</error>\n</errors>\n`
}

/** `.json` errors: Rails' `errors.to_json` of full messages [INFERRED]. */
export function v0ErrorJson(message: string): string {
  return JSON.stringify({ errors: [message] })
}

/** A v0 error answer in the request's format. */
export function v0Error(format: 'json' | 'xml', err: V2Error): Response {
  const body = format === 'json' ? v0ErrorJson(err.title) : v0ErrorXml(err.title)
  return new Response(body, {
    status: err.status,
    headers: { 'Content-Type': renderers[format].contentType, ...err.headers },
  })
}

/** The 201 answer of a recorded v0 deployment. */
export function v0Created(format: 'json' | 'xml', record: V0Record): Response {
  return new Response(format === 'json' ? v0Json(record) : v0Xml(record), {
    status: 201,
    headers: { 'Content-Type': renderers[format].contentType },
  })
}
