/**
 * @module report/entries
 * The migration report's data (pure): one call as the report keeps it (names, never values), and the
 * per-key aggregation into one entry per v2 operation and client family, with bounds.
 */
import type { SentDocument } from '../upstream/explain-client'
import { operationOf } from '../upstream/nerdgraph'

/** The end of life of REST API v2 (New Relic docs "REST API v2 end of life"). */
export const endOfLife = '2027-07-31'

/** A NerdGraph document as the report shows it: variable names, literals in NRQL masked. */
export interface DocumentShape {
  operation: string | null
  kind: 'query' | 'mutation'
  document: string
  variables: string[]
  nrql: string[]
}

export interface CallEvent {
  at: number
  method: string
  /** The operation's path template (mappings/operations.ts). */
  path: string
  status: number
  parameters: string[]
  metricNames: string[]
  valueTypes: string[]
  client: string
  documents: DocumentShape[]
}

export interface ReportEntry {
  method: string
  path: string
  client: string
  count: number
  errors: number
  firstSeen: number
  lastSeen: number
  parameters: string[]
  metricNames: string[]
  valueTypes: string[]
  /** From the first call that reached NerdGraph. */
  documents: DocumentShape[]
}

/** The report's bounds: per key, entries (one per operation and client family) and names per
 * entry, and approximate bytes in memory (V8 strings: 2 bytes a character); over every key, keys
 * and bytes (the least recently seen key goes first). */
export const bounds = {
  keys: 10_000,
  entriesPerKey: 300,
  namesPerEntry: 200,
  nameLength: 255,
  bytesPerKey: 256 * 1024,
  bytes: 32 * 2 ** 20,
}

/** NRQL with every literal masked: `'…'` strings and numbers become `?`. */
export function maskNrql(nrql: string): string {
  return nrql.replace(/'(?:[^'\\]|\\.)*'/g, "'?'").replace(/\b\d+(?:\.\d+)?\b/g, '?')
}

/** A sent document as the report keeps it (no variable values; literals masked). */
export function shapeOf(sent: SentDocument): DocumentShape {
  const op = operationOf(sent.document)
  const declared = [...sent.document.matchAll(/\$(\w+)\s*:\s*Nrql\b/g)].map((m) => m[1]!)
  return {
    operation: op.name ?? null,
    kind: op.isMutation ? 'mutation' : 'query',
    document: sent.document.replace(/"(?:[^"\\]|\\.)*"/g, '"?"'),
    variables: Object.keys(sent.variables),
    nrql: declared
      .map((name) => sent.variables[name])
      .filter((v): v is string => typeof v === 'string')
      .map(maskNrql),
  }
}

const textBytes = (text: string) => 16 + 2 * text.length

/** Adds the names of `more` missing from `into`, within the bounds and `budget` bytes; the bytes
 * added. */
const union = (into: string[], more: readonly string[], budget: number) => {
  const before = into.length
  let added = 0
  for (const m of more) {
    if (into.length >= bounds.namesPerEntry) break
    const name = m.slice(0, bounds.nameLength)
    if (into.includes(name)) continue
    if (added + textBytes(name) > budget) break
    into.push(name)
    added += textBytes(name)
  }
  if (into.length > before) into.sort() // a repeated call (the usual one) adds nothing to sort
  return added
}

export const entryKey = (e: { method: string; path: string; client: string }) =>
  `${e.method} ${e.path} ${e.client}`

/** Approximate bytes of a new entry before its names. */
const entryBytes = (e: { method: string; path: string; client: string }) =>
  200 + textBytes(e.method + e.path + e.client)

/** Approximate bytes of the documents an entry keeps. */
const documentBytes = (documents: readonly DocumentShape[]) => textBytes(JSON.stringify(documents))

/**
 * Adds one call to a key's entries (in place), using at most `budget` more bytes: a new entry past
 * the bounds is dropped, and names or documents that do not fit are left out. Counts and times
 * always update. Answers the bytes added.
 */
export function addCall(
  entries: Map<string, ReportEntry>,
  call: CallEvent,
  budget = Infinity
): number {
  const key = entryKey(call)
  let entry = entries.get(key)
  let added = 0
  if (!entry) {
    added = entryBytes(call)
    if (entries.size >= bounds.entriesPerKey || added > budget) return 0
    entry = {
      method: call.method,
      path: call.path,
      client: call.client,
      count: 0,
      errors: 0,
      firstSeen: call.at,
      lastSeen: call.at,
      parameters: [],
      metricNames: [],
      valueTypes: [],
      documents: [],
    }
    entries.set(key, entry)
  }
  entry.count += 1
  if (call.status >= 400) entry.errors += 1
  entry.firstSeen = Math.min(entry.firstSeen, call.at)
  entry.lastSeen = Math.max(entry.lastSeen, call.at)
  added += union(entry.parameters, call.parameters, budget - added)
  added += union(entry.metricNames, call.metricNames, budget - added)
  added += union(entry.valueTypes, call.valueTypes, budget - added)
  if (entry.documents.length === 0 && call.documents.length) {
    const bytes = documentBytes(call.documents)
    if (added + bytes <= budget) {
      entry.documents = call.documents
      added += bytes
    }
  }
  return added
}

/** Approximate bytes of a key's entries, as `addCall` counts them. */
export function entriesBytes(entries: Iterable<ReportEntry>): number {
  let bytes = 0
  for (const e of entries) {
    bytes += entryBytes(e) + documentBytes(e.documents)
    for (const n of [...e.parameters, ...e.metricNames, ...e.valueTypes]) bytes += textBytes(n)
  }
  return bytes
}
