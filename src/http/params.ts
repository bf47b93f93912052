/**
 * @module http/params
 * v2 parameters merged from every place real clients put them (docs' curl `-X GET -d` examples,
 * POSTs of ansible `newrelic_deployment` and hubot-newrelic2, bare `names` of KEN): the query string,
 * a form body (also on GET, as `curl -X GET -d` sends it), or a JSON object body on POST-as-read.
 * Array spellings `x[]`, `x` and `x[N]` are read as one list.
 */
import { formParts, jsonShape, maxJsonDepth } from './body'
import { V2Error } from '../core/errors'
import { xmlBody } from './xml-body'

/** Parameters one body may carry: a v2 call names a few, a label or a filter a few hundred IDs
 * (our bound, well past any client we know). Bodies past it are refused, so reading one costs a
 * single linear pass. */
export const maxBodyParams = 10_000

/** 400 titles of bodies that cannot be read as parameters ([UNCONFIRMED] proposal: 400 only for
 * unparsable bodies, 422 for parameters). */
export const bodyTitles = {
  json: 'Invalid JSON in request body',
  notObject: 'The request body must be a JSON object',
  tooDeep: `The JSON request body is nested deeper than ${maxJsonDepth} levels`,
  tooMany: `More than ${maxBodyParams} parameters in the request body`,
} as const

export class V2Params {
  private readonly map = new Map<string, string[]>()

  constructor(entries: Iterable<[string, string]> = []) {
    for (const [k, v] of entries) this.add(k, v)
  }

  add(key: string, value: string): void {
    const list = this.map.get(key)
    if (list) list.push(value)
    else this.map.set(key, [value])
  }

  /** Last value of a scalar parameter (Rails keeps the last of repeated keys). */
  get(name: string): string | undefined {
    return this.map.get(name)?.at(-1)
  }

  has(name: string): boolean {
    return this.list(name).length > 0
  }

  /** Every value of `name[]`, `name` and `name[N]` (indexed ones in index order), in that order. */
  list(name: string): string[] {
    const out = [...(this.map.get(`${name}[]`) ?? []), ...(this.map.get(name) ?? [])]
    const indexed: [number, string[]][] = []
    const prefix = `${name}[`
    for (const [key, values] of this.map) {
      if (!key.startsWith(prefix) || !key.endsWith(']')) continue
      const index = key.slice(prefix.length, -1)
      if (/^\d{1,6}$/.test(index)) indexed.push([Number(index), values])
    }
    indexed.sort((a, b) => a[0] - b[0])
    for (const [, values] of indexed) out.push(...values)
    return out
  }

  /** `true`, `1`, `yes` (any case) are true; anything else is false (Rails-style casting
   * [INFERRED]). */
  bool(name: string): boolean {
    const v = this.get(name)
    return v !== undefined && /^(true|1|yes)$/i.test(v.trim())
  }

  /** Every key/value pair, for rebuilding Link URLs (src/http/link-header.ts). */
  entries(): [string, string][] {
    return [...this.map].flatMap(([k, vs]) => vs.map((v): [string, string] => [k, v]))
  }
}

/** Ruby's `String#to_i`, as Rails code reads a number from a parameter: leading blanks, a sign and the
 * digits that follow; anything else is 0 (`'abc'` → 0, `'12abc'` → 12). */
export function rubyToI(text: string): number {
  const m = /^\s*([+-]?\d+)/.exec(text)
  const n = m ? Number(m[1]!.replace(/^\+/, '')) : 0
  return Number.isSafeInteger(n) ? n : 0
}

/** Comma-separated (GO, AMB, REL), percent-encoded or repeated keys (PGN), `filter[id]` as an alias
 * (D-hostids). No recorded v2 answer shows a bad ID, so each is read as Rails code reads one
 * (`to_i`, `rubyToI`): `filter[ids]=abc` asks for ID 0, which no object has. */
export function idList(p: V2Params, ...names: string[]): number[] | undefined {
  const raw = names.flatMap((n) => p.list(n)).flatMap((v) => v.split(','))
  const values = raw.map((v) => v.trim()).filter((v) => v !== '')
  if (values.length === 0) return undefined
  return [...new Set(values.map(rubyToI))]
}

/** The 1-based `page` of every paged list (D-pag): absent → 1; otherwise read as Rails' paginators
 * read it (`to_i`, then at least 1), so `page=abc`, `page=0` and `page=-1` are the first page: no
 * recorded v2 answer shows an error for a bad page. */
export function pageParam(params: V2Params): number {
  const raw = params.get('page')
  if (raw === undefined) return 1
  return Math.min(Math.max(1, rubyToI(raw)), 999_999_999)
}

/** Reads the body of a request as parameters: form-encoded, a JSON object or XML (src/http/xml-body.ts). */
export function paramsFromBody(text: string, contentType: string | undefined): [string, string][] {
  if (text.trim() === '') return []
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  if (type === 'application/json' || (type === '' && /^\s*\{/.test(text))) {
    // Checked before parsing: flattening (and JSON.stringify of nested values) recurse.
    const shape = jsonShape(text, maxJsonDepth, maxBodyParams)
    if (shape.depth > maxJsonDepth) throw new V2Error(400, bodyTitles.tooDeep)
    if (shape.commas >= maxBodyParams) throw new V2Error(400, bodyTitles.tooMany)
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      throw new V2Error(400, bodyTitles.json)
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new V2Error(400, bodyTitles.notObject)
    }
    return flattenJson(parsed as Record<string, unknown>)
  }
  if (/^(application|text)\/xml$/.test(type) || (type === '' && /^\s*</.test(text))) {
    return flattenJson(xmlBody(text))
  }
  if (formParts(text, maxBodyParams) > maxBodyParams) throw new V2Error(400, bodyTitles.tooMany)
  return [...new URLSearchParams(text)]
}

/** `{"filter[name]":"x","names":["a","b"],"filter":{"ids":[1]}}` → bracketed key/value pairs, into
 * one list (no copies per level), refused past `maxBodyParams`. */
function flattenJson(
  obj: Record<string, unknown>,
  prefix = '',
  out: [string, string][] = []
): [string, string][] {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}[${k}]` : k
    if (Array.isArray(v)) for (const item of v) out.push([`${key}[]`, scalar(item)])
    else if (v !== null && typeof v === 'object')
      flattenJson(v as Record<string, unknown>, key, out)
    else if (v !== null && v !== undefined) out.push([key, scalar(v)])
    if (out.length > maxBodyParams) throw new V2Error(400, bodyTitles.tooMany)
  }
  return out
}

function scalar(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v)
}
