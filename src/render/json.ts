/**
 * @module render/json
 * V2 body → JSON text. Key order is the body's insertion order: the main key first
 * (hakamadare/rubygem-reliquary reads the first top-level value).
 */
export function renderJson(body: Record<string, unknown>): string {
  return JSON.stringify(body)
}
