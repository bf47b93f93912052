/**
 * @module explain/fields
 * The explain field table (mappings/explain-fields.ts), read as the static file `explain-fields.json`
 * (src/http/static-files.ts) so that the Worker's script does not carry it; parsed once per app.
 */
import type { Context } from 'hono'
import type { Env } from '../http/env'
import type { ReadStatic } from '../http/static-files'

/** Answer field → where it comes from in NerdGraph. */
export type FieldRows = Readonly<Record<string, string>>
/** `'METHOD /v2/path'` (as in mappings/operations.ts) → its field rows. */
export type FieldTable = Readonly<Record<string, FieldRows>>

export const fieldsFile = 'explain-fields.json'

/** The key of an operation's rows in the table. */
export const fieldsKey = (row: { method: string; path: string }) => `${row.method} ${row.path}`

/** The table, read on first use; empty while the file cannot be read. */
export function fieldTableReader(read: ReadStatic): (c: Context<Env>) => Promise<FieldTable> {
  let table: FieldTable | undefined
  return async (c) => {
    if (table) return table
    const text = await read(c, fieldsFile)
    return text === undefined ? {} : (table = JSON.parse(text) as FieldTable)
  }
}
