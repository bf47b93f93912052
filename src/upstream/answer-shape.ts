/**
 * @module upstream/answer-shape
 * A NerdGraph answer holds every field its document asked for. GraphQL puts each selected field's
 * response key (its alias, else its name) in the result, null when it failed or is empty (GraphQL
 * spec "Response" § "Data" and "Handling Field Errors"), so an absent key is a broken answer, not an
 * empty one: read on, `actor.entitySearch.results.entities ?? []` would turn it into a 200 empty
 * list. Such an answer is v2's 502. A null is an answer (NerdGraph's schema, schema/nerdgraph.graphql,
 * makes nearly every field nullable; an unknown GUID is `entity: null`), and so is an empty list.
 * Fields under an inline fragment (`... on Type`), a fragment spread or `@include`/`@skip` are asked
 * only of some objects, so they are not required. An answer with field errors is judged by the
 * partial-errors policy instead (mappings/partial-errors.ts). The document is read by a small scanner of
 * GraphQL's lexical grammar (GraphQL spec "Language"): the Worker carries no graphql-js
 * (src/upstream/worker-graphql.ts).
 */
import { V2Error } from '../core/errors'
import { UpstreamFault } from './retry'

export const lackingTitle = "NerdGraph's answer lacked the requested data"

/** One selected field: its response key, and the fields selected below it. */
interface Selected {
  key: string
  below: Selected[] | undefined
}

const token =
  /\s+|,|#[^\n\r]*|"""[\s\S]*?"""|"(?:\\.|[^"\\\n])*"|\.\.\.|[{}()[\]:!$@=|&]|[_A-Za-z][_0-9A-Za-z]*|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y

function tokens(document: string): string[] {
  const out: string[] = []
  token.lastIndex = 0
  while (token.lastIndex < document.length) {
    const at = token.lastIndex
    const m = token.exec(document)
    if (!m) throw new Error(`answer-shape: unexpected character at ${at}`)
    const t = m[0]
    if (!/^(\s+|,|#.*)$/.test(t)) out.push(t)
  }
  return out
}

/** The fields the first operation of `document` selects, required ones only. */
export function requestedFields(document: string): Selected[] {
  const t = tokens(document)
  let i = 0
  const skipBalanced = (open: string, close: string) => {
    let depth = 0
    do {
      if (t[i] === open) depth++
      else if (t[i] === close) depth--
      i++
    } while (depth > 0 && i < t.length)
  }
  /** Directives at `i`; true when one makes the field conditional. */
  const directives = () => {
    let conditional = false
    while (t[i] === '@') {
      const name = t[i + 1]
      if (name === 'include' || name === 'skip') conditional = true
      i += 2
      if (t[i] === '(') skipBalanced('(', ')')
    }
    return conditional
  }
  const selectionSet = (): Selected[] => {
    const fields: Selected[] = []
    i++ // {
    while (i < t.length && t[i] !== '}') {
      if (t[i] === '...') {
        i++
        // `... on Type { }` and a spread `...Name` apply to some objects only.
        let typed = t[i] === 'on'
        if (typed) i += 2
        else if (t[i] !== '{' && t[i] !== '@') {
          typed = true
          i++ // the spread's fragment name
        }
        const conditional = directives() || typed
        if (t[i] === '{') {
          const inner = selectionSet()
          if (!conditional) fields.push(...inner) // `... { }`: the parent's own selection
        }
        continue
      }
      const key = t[i++]!
      if (t[i] === ':') i += 2 // alias: name
      if (t[i] === '(') skipBalanced('(', ')')
      const conditional = directives()
      const below = t[i] === '{' ? selectionSet() : undefined
      if (!conditional) fields.push({ key, below })
    }
    i++ // }
    return fields
  }
  // Skip fragment definitions and the operation's header up to its selection set.
  while (i < t.length) {
    if (t[i] === 'fragment') {
      while (t[i] !== '{') i++
      selectionSet()
      continue
    }
    if (t[i] === '(') skipBalanced('(', ')')
    else if (t[i] === '{') return selectionSet()
    else i++
  }
  return []
}

const parsed = new Map<string, Selected[]>()
const parsedMax = 512

function fieldsOf(document: string): Selected[] {
  let fields = parsed.get(document)
  if (!fields) {
    if (parsed.size >= parsedMax) parsed.clear() // documents with per-call aliases come and go
    parsed.set(document, (fields = requestedFields(document)))
  }
  return fields
}

/** The path of the first requested field `data` lacks, or undefined when it holds them all. */
export function lackingField(
  fields: readonly Selected[],
  value: unknown,
  path = ''
): string | undefined {
  if (value === null) return undefined
  if (Array.isArray(value)) {
    for (const item of value) {
      const lacking = lackingField(fields, item, path)
      if (lacking) return lacking
    }
    return undefined
  }
  if (typeof value !== 'object') return path || '(root)' // fields asked of a scalar
  const object = value as Record<string, unknown>
  for (const { key, below } of fields) {
    const at = path ? `${path}.${key}` : key
    if (!Object.hasOwn(object, key)) return at
    if (below) {
      const lacking = lackingField(below, object[key], at)
      if (lacking) return lacking
    }
  }
  return undefined
}

/** Throws v2's 502 when NerdGraph's `data` lacks a field `document` asked for; the result otherwise.
 * An answer with field errors was judged by the partial-errors policy (src/upstream/fault.ts
 * `settle`, mappings/partial-errors.ts): what it lacks, its errors explain. */
export function withRequestedFields<R extends { data: unknown; errors: readonly unknown[] }>(
  document: string,
  result: R
): R {
  if (result.errors.length) return result
  const lacking = lackingField(fieldsOf(document), result.data)
  if (lacking)
    throw new UpstreamFault(
      'badBody',
      new V2Error(502, lackingTitle, { reason: `${lackingTitle}: ${lacking}` })
    )
  return result
}
