/**
 * @module compare/documented
 * Differences docs/differences.md explains, as data: an operation, a normalised path and the kinds
 * of difference that row describes, and the row (its "call" cell, as the page writes it). A
 * comparison shows such a difference as `documented` with its row, apart from what differs, so a
 * known gap never reads as a new one. test/compare/documented.test.ts checks each row is one of
 * the page's.
 */
import type { Difference, Kind } from './diff'

export interface DocumentedRow {
  /** `METHOD /v2/path/{template}` (mappings/operations.ts). */
  operation: string
  path: string
  kinds: readonly Kind[]
  /** The row's "call" cell in docs/differences.md. */
  row: string
}

const mobile = '`GET /v2/mobile_applications[/{id}]`'
const users = '`GET /v2/users[/{id}]` `role`'
const lastLink = '`GET /v2/alerts_incidents`, `alerts_events` `Link`'

export const documentedRows: readonly DocumentedRow[] = [
  ...(['applications[]', 'application'] as const).flatMap((item) =>
    [`${item}.mobile_summary.interaction_time`, `${item}.crash_summary.unresolved_crash_count`].map(
      (path) => ({
        operation: `GET /v2/mobile_applications${item === 'application' ? '/{id}' : ''}`,
        path,
        kinds: ['missing'] as const,
        row: mobile,
      })
    )
  ),
  { operation: 'GET /v2/users', path: 'users[].role', kinds: ['value'], row: users },
  { operation: 'GET /v2/users/{id}', path: 'user.role', kinds: ['value'], row: users },
  { operation: 'GET /v2/alerts_incidents', path: '(link).last', kinds: ['missing'], row: lastLink },
  { operation: 'GET /v2/alerts_events', path: '(link).last', kinds: ['missing'], row: lastLink },
]

const byOperation = new Map<string, DocumentedRow[]>()
for (const r of documentedRows)
  byOperation.set(r.operation, [...(byOperation.get(r.operation) ?? []), r])

/** The row of docs/differences.md that explains `d` in `operation`, if one does. */
export function documentedRow(operation: string, d: Difference): string | undefined {
  return byOperation.get(operation)?.find((r) => r.path === d.path && r.kinds.includes(d.kind))?.row
}
