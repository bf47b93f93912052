import { describe, expect, it } from 'vitest'
import { explainFields } from '../../mappings/explain-fields'
import { fieldsKey } from '../../src/explain/fields'
import { operations, type OperationRow } from '../../mappings/operations'

const rows: readonly OperationRow[] = operations

describe('the explain field table (mappings/explain-fields.ts)', () => {
  it('has a row for every served operation: add yours when you serve one', () => {
    const missing = rows
      .filter((r) => r.answer === 'served' && !(fieldsKey(r) in explainFields))
      .map(fieldsKey)
    expect(missing).toEqual([])
  })

  it('keys only operations of the table, each with at least one field', () => {
    const keys = new Set(rows.map(fieldsKey))
    for (const [key, fields] of Object.entries(explainFields)) {
      expect(keys.has(key), key).toBe(true)
      expect(Object.keys(fields).length, key).toBeGreaterThan(0)
    }
  })
})
