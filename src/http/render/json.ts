/**
 * @module http/render/json
 * V2 body → JSON text. Key order is the body's insertion order: the main key first
 * (hakamadare/rubygem-reliquary reads the first top-level value).
 */

/** Bodies that write their own JSON text, exactly `JSON.stringify(body)` but without walking it
 * (src/resources/metrics/json.ts: issue 16, large metric-data answers). Such a body is not changed after. */
const writers = new WeakMap<object, () => string>()

export function withJsonWriter<T extends object>(body: T, write: () => string): T {
  writers.set(body, write)
  return body
}

export function renderJson(body: Record<string, unknown>): string {
  const write = writers.get(body)
  return write ? write() : JSON.stringify(body)
}
