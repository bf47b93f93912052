/**
 * @module report/view
 * A key's report entries → the report answer (pure): each entry with its operation row, field
 * mapping and what it becomes in NerdGraph, most called first.
 */
import { operations, type OperationRow } from '../../mappings/operations'
import { fieldsKey, type FieldTable } from '../explain/fields'
import { endOfLife, type ReportEntry } from './entries'
import { verificationLine, type Verification } from '../compare'

const rows: readonly OperationRow[] = operations
const rowOf = (method: string, path: string) =>
  rows.find((r) => r.method === method && r.path === path)

/** What an operation becomes, the heading the HTML page groups by. */
export function becomes(row: OperationRow | undefined): string {
  if (!row) return 'Unknown operation'
  if (row.answer === 'served') return `NerdGraph: ${(row.nerdgraph ?? []).join(', ')}`
  if (row.answer === 'forwarded') return 'Forwarded to REST API v2 (kept after the end of life)'
  if (row.answer === 'retired') return 'Retired by New Relic (410)'
  return 'No NerdGraph equivalent in v2bridge (501)'
}

/** Compare mode's aggregates (src/compare/aggregate.ts) as the report shows them: most compared
 * first, each with its one-line summary. */
export function verificationBody(verification: readonly Verification[]) {
  return [...verification]
    .sort((a, b) => b.compared - a.compared || a.path.localeCompare(b.path))
    .map((v) => ({
      method: v.method,
      path: v.path,
      summary: verificationLine(v),
      compared: v.compared,
      equal: v.equal,
      differing: v.differing,
      documented: v.documented,
      skipped: v.skipped,
      errors: v.errors,
      not_compared: v.notCompared,
      differences: v.paths,
      documented_differences: v.documentedPaths,
      noisy: v.noisy,
      cosmetic: v.cosmetic,
    }))
}

/** `fields`: the explain field table (src/explain/fields.ts); `verification`: compare mode's
 * aggregates of the key. */
export function reportBody(
  keyHash: string,
  entries: readonly ReportEntry[],
  fields: FieldTable,
  verification: readonly Verification[] = []
) {
  const operationsCalled = [...entries]
    .sort((a, b) => b.count - a.count || a.path.localeCompare(b.path))
    .map((e) => {
      const row = rowOf(e.method, e.path)
      return {
        method: e.method,
        path: e.path,
        summary: row?.summary ?? null,
        answer: row?.answer ?? null,
        becomes: becomes(row),
        client: e.client,
        count: e.count,
        errors: e.errors,
        first_seen: new Date(e.firstSeen).toISOString(),
        last_seen: new Date(e.lastSeen).toISOString(),
        parameters: e.parameters,
        metric_names: e.metricNames,
        value_types: e.valueTypes,
        nerdgraph: e.documents,
        fields: row ? (fields[fieldsKey(row)] ?? {}) : {},
      }
    })
  return {
    report: {
      key: `sha256:${keyHash.slice(0, 12)}…`,
      end_of_life: endOfLife,
      operations: operationsCalled,
      verification: verificationBody(verification),
    },
  }
}

export type ReportBody = ReturnType<typeof reportBody>
