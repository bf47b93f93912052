/**
 * Documented differences (issue 36 item 4): each row of src/compare/documented.ts names a row of
 * docs/differences.md by its "call" cell, and a difference it explains is shown as `documented`
 * with that row, counted apart from `differs`, and does not fail verify.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { documentedRows } from '../../src/compare/documented'
import { Comparer, addOutcome, type Verification } from '../../src/compare'
import { verifyLines } from '../../src/cli/verify'
import { operations } from '../../mappings/operations'

const page = readFileSync('docs/differences.md', 'utf8')
/** The first cell of each table row of the page. */
const calls = new Set(
  page
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| -'))
    .map((l) => l.split(' | ')[0]!.slice(2).trim())
)

const json = (body: unknown) =>
  Promise.resolve(
    new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } })
  )

describe('documented differences', () => {
  it.each(documentedRows)('$operation $path names a row of docs/differences.md', (row) => {
    expect(calls).toContain(row.row)
    const [method, path] = row.operation.split(' ')
    expect(operations.some((o) => o.method === method && o.path === path)).toBe(true)
  })

  it('shows a documented difference as documented, apart from differs, and verify passes', async () => {
    const op = { method: 'GET', path: '/v2/users/{id}' }
    const user = (role: string) => ({ user: { id: 1, email: 'a@example.com', role } })
    const o = await new Comparer().compare(op, json(user('owner')), json(user('admin')), () =>
      json(user('owner'))
    )
    expect(o.result).toBe('documented')
    expect(o.differences).toEqual([])
    expect(o.documented).toEqual([['user.role', '`GET /v2/users[/{id}]` `role`']])
    const into = new Map<string, Verification>()
    addOutcome(into, o, { entriesPerKey: 10, namesPerEntry: 10, nameLength: 255 })
    const v = [...into.values()]
    expect(v[0]).toMatchObject({ compared: 1, equal: 0, differing: 0, documented: 1 })
    const lines = verifyLines({ ok: true, calls: 1, operations: v })
    expect(lines).toContain(
      '  documented  user.role  in 1 (docs/differences.md: `GET /v2/users[/{id}]` `role`)'
    )
  })

  it('still reports an undocumented difference beside a documented one', async () => {
    const op = { method: 'GET', path: '/v2/users/{id}' }
    const user = (role: string, email: string) => ({ user: { id: 1, email, role } })
    const o = await new Comparer().compare(
      op,
      json(user('owner', 'a@example.com')),
      json(user('admin', 'b@example.com')),
      () => json(user('owner', 'a@example.com'))
    )
    expect(o.result).toBe('differing')
    expect(o.differences.map((d) => d.path)).toEqual(['user.email'])
  })
})
