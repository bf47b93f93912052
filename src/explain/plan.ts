/**
 * @module explain/plan
 * The explain answer (pure): the v2 operation, each NerdGraph document and its variables, its NRQL,
 * the field mapping and a curl line that runs the same request with `$NEW_RELIC_USER_KEY`. The key is
 * never part of it: documents and variables never hold it.
 */
import type { OperationRow } from '../../mappings/operations'
import { operationOf } from '../upstream/nerdgraph'
import type { SentDocument } from '../upstream/explain-client'
import type { FieldRows } from './fields'

/** The hosts of New Relic's REST API v2, where forwarded operations go (New Relic docs
 * "Introduction to New Relic REST API (v2)": api.newrelic.com, api.eu.newrelic.com). */
export const v2Hosts = {
  us: 'https://api.newrelic.com',
  eu: 'https://api.eu.newrelic.com',
} as const

export interface ExplainInput {
  row: OperationRow
  method: string
  /** The v2 request: path (with `.json`/`.xml`) and query. */
  url: URL
  params: [string, string][]
  sent: readonly SentDocument[]
  endpoint: string
  region: keyof typeof v2Hosts
  /** Where forwarded operations go (the `V2_URL` setting), else the region's v2 host. */
  v2Url?: string | undefined
  /** The operation's rows of the explain field table (src/explain/fields.ts). */
  fields: FieldRows
  /** The headers a forwarded call would send (src/http/forward.ts), keys replaced by a placeholder. */
  forwardHeaders?: [string, string][]
  /** The call as NRQL for people (src/resources/metrics/readable.ts), where a route writes it. */
  readable?: readonly string[]
}

/** Every NRQL string of a request: variables declared `Nrql` and NRQL written into the document. */
export function nrqlOf(document: string, variables: Record<string, unknown>): string[] {
  const declared = [...document.matchAll(/\$(\w+)\s*:\s*Nrql\b/g)].map((m) => m[1]!)
  const fromVariables = declared
    .map((name) => variables[name])
    .filter((v): v is string => typeof v === 'string')
  const inline = [...document.matchAll(/\bquery\s*:\s*"((?:[^"\\]|\\.)*)"/g)].map(
    (m) => JSON.parse(`"${m[1]}"`) as string
  )
  return [...fromVariables, ...inline]
}

/** The environment variable every printed command reads the user key from: explain's curl and
 * forwarded headers, the explorer's curl, the `v2bridge` command and the docs. "User key", not "API
 * key": to a v2 client an API key is the legacy REST API key, which NerdGraph refuses. */
export const userKeyVariable = '$NEW_RELIC_USER_KEY'

/** POSIX shell single quotes: `'` becomes `'\''`. */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

/** A URL for the shell: a setting's name (`$NERDGRAPH_URL`, src/explain/index.ts) in double quotes,
 * so the shell expands it; anything else in single quotes, so it does not. */
const shellUrl = (s: string) => (/^\$[A-Z_]+$/.test(s) ? `"${s}"` : shellQuote(s))

/** A curl line that sends `body` to NerdGraph with the key from the environment. */
export function curlFor(endpoint: string, body: { query: string; variables: unknown }): string {
  return [
    `curl -sS -X POST ${shellUrl(endpoint)}`,
    `-H 'Content-Type: application/json'`,
    `-H "API-Key: ${userKeyVariable}"`,
    `--data-binary ${shellQuote(JSON.stringify(body))}`,
  ].join(' \\\n  ')
}

function describe(sent: SentDocument, endpoint: string, withCurl: boolean) {
  const op = operationOf(sent.document)
  return {
    operation: op.name ?? null,
    kind: op.isMutation ? 'mutation' : 'query',
    document: sent.document,
    variables: sent.variables,
    nrql: nrqlOf(sent.document, sent.variables),
    ...(withCurl
      ? { curl: curlFor(endpoint, { query: sent.document, variables: sent.variables }) }
      : {}),
  }
}

/** The explain answer of one request. */
export function explainBody(input: ExplainInput): Record<string, unknown> {
  const { row } = input
  const operation = {
    method: row.method,
    path: row.path,
    resource: row.resource,
    summary: row.summary,
    answer: row.answer,
    nerdgraph: row.nerdgraph ?? [],
  }
  const request = {
    method: input.method,
    path: input.url.pathname,
    parameters: input.params,
  }
  if (row.answer === 'forwarded') {
    const base = input.v2Url ?? v2Hosts[input.region]
    // A private V2_URL is shown as its setting's name (src/explain/index.ts).
    const target = base.startsWith('$')
      ? `${base}${input.url.pathname.replace(/^\/v2(?=\/)/, '')}${input.url.search}`
      : new URL(input.url.pathname + input.url.search, base).toString()
    return {
      explain: {
        operation,
        request,
        forwarded: {
          method: input.method,
          url: target,
          headers: Object.fromEntries(input.forwardHeaders ?? []),
          note: "Passed unchanged to New Relic REST API v2 with the caller's key (X-Api-Key); no NerdGraph request.",
        },
      },
    }
  }
  return {
    explain: {
      operation,
      request,
      lookups: input.sent.filter((s) => s.lookup).map((s) => describe(s, input.endpoint, false)),
      nerdgraph: input.sent.filter((s) => !s.lookup).map((s) => describe(s, input.endpoint, true)),
      ...(input.readable?.length ? { readable_nrql: input.readable } : {}),
      fields: input.fields,
    },
  }
}
