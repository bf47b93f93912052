/** @module simulator/graphql/entity-search — the subset of the entity search query language the simulator accepts. */
import type { SimEntity } from '../data/entity'

/** Thrown for search syntax outside the subset; the resolver turns it into errorClass INVALID_INPUT. */
export class SearchSyntaxError extends Error {}

type Value = string | number | boolean
interface Condition {
  field: string
  op: 'eq' | 'in' | 'like'
  values: Value[]
}
export type SearchPredicate = (entity: SimEntity) => boolean

/** Attributes usable in a query (D-migrate; CT-graphql in docs/sources.md). */
const FIELDS: Record<string, (e: SimEntity) => string | string[]> = {
  id: (e) => e.guid,
  domain: (e) => e.domain,
  type: (e) => e.type,
  accountId: (e) => String(e.accountId),
  domainId: (e) => e.domainId,
  reporting: (e) => String(e.reporting),
  language: (e) => (e.language === null ? [] : e.language),
  name: (e) => e.name,
  alertSeverity: (e) => e.alertSeverity,
}

const TOKEN = /\s*(?:('(?:[^'\\]|\\.)*')|(-?\d+(?:\.\d+)?)|([A-Za-z_][\w.]*)|(=|\(|\)|,)|(\S))/y

function tokenize(query: string): string[] {
  const tokens: string[] = []
  TOKEN.lastIndex = 0
  while (TOKEN.lastIndex < query.length) {
    const m = TOKEN.exec(query)
    if (!m || m[0].trim() === '') break
    if (m[5] !== undefined) throw new SearchSyntaxError(`unexpected character '${m[5]}'`)
    tokens.push((m[1] ?? m[2] ?? m[3] ?? m[4])!)
  }
  return tokens
}

function literal(token: string | undefined): Value {
  if (token === undefined) throw new SearchSyntaxError('unexpected end of query')
  if (token.startsWith("'")) return token.slice(1, -1).replace(/\\(.)/g, '$1')
  if (/^-?\d/.test(token)) return Number(token)
  if (/^(true|false)$/i.test(token)) return token.toLowerCase() === 'true'
  throw new SearchSyntaxError(`expected a value, found '${token}'`)
}

function attribute(field: string): (e: SimEntity) => string | string[] {
  const direct = FIELDS[field]
  if (direct) return direct
  if (field.startsWith('tags.')) {
    const key = field.slice(5)
    return (e) => [...(e.tags().find((t) => t.key === key)?.values ?? [])]
  }
  throw new SearchSyntaxError(`unsupported attribute '${field}'`)
}

function parse(query: string): Condition[] {
  const tokens = tokenize(query)
  const out: Condition[] = []
  let i = 0
  while (i < tokens.length) {
    if (out.length > 0) {
      if (tokens[i]?.toUpperCase() !== 'AND')
        throw new SearchSyntaxError(`expected AND, found '${tokens[i]}'`)
      i++
    }
    const field = tokens[i++] ?? ''
    if (!/^[A-Za-z_]/.test(field))
      throw new SearchSyntaxError(`expected an attribute, found '${field}'`)
    attribute(field)
    const op = tokens[i++]?.toUpperCase()
    if (op === '=') out.push({ field, op: 'eq', values: [literal(tokens[i++])] })
    else if (op === 'LIKE') {
      const value = literal(tokens[i++])
      if (field !== 'name' || typeof value !== 'string')
        throw new SearchSyntaxError('LIKE needs name and a string')
      out.push({ field, op: 'like', values: [value] })
    } else if (op === 'IN') {
      if (tokens[i++] !== '(') throw new SearchSyntaxError('expected ( after IN')
      const values = [literal(tokens[i++])]
      while (tokens[i] === ',') {
        values.push(literal(tokens[i + 1]))
        i += 2
      }
      if (tokens[i++] !== ')') throw new SearchSyntaxError('expected ) to close IN')
      out.push({ field, op: 'in', values })
    } else throw new SearchSyntaxError(`unsupported operator '${op ?? ''}'`)
  }
  return out
}

/** LIKE treats `.,;:*-_` as whitespace (D-migrate); matching is case-insensitive. */
export function normalizeLike(text: string): string {
  return text
    .toLowerCase()
    .replace(/[.,;:*\-_\s]+/g, ' ')
    .trim()
}

function like(pattern: string): (text: string) => boolean {
  const pieces = pattern
    .split('%')
    .map(normalizeLike)
    .filter((p) => p !== '')
  return (text) => {
    const subject = normalizeLike(text)
    let from = 0
    for (const piece of pieces) {
      const at = subject.indexOf(piece, from)
      if (at < 0) return false
      from = at + piece.length
    }
    return true
  }
}

function predicate(condition: Condition): SearchPredicate {
  const read = attribute(condition.field)
  if (condition.op === 'like') {
    const test = like(String(condition.values[0]))
    return (e) => test(String(read(e)))
  }
  const wanted = new Set(condition.values.map((v) => String(v).toLowerCase()))
  return (e) => {
    const actual = read(e)
    return (Array.isArray(actual) ? actual : [actual]).some((v) => wanted.has(v.toLowerCase()))
  }
}

/** Compiles a search query; an empty query matches every entity. Throws SearchSyntaxError. */
export function compileSearch(query: string | null | undefined): SearchPredicate {
  const predicates = parse(query ?? '').map(predicate)
  return (e) => predicates.every((p) => p(e))
}
