/**
 * `npm run docs:operations`: writes the table of every v2 operation in docs/api.md from
 * mappings/operations.ts, between the `operations:start` / `operations:end` markers.
 * test/operations.test.ts fails when docs/api.md and the table differ.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { operations, readsByPost, type OperationRow } from '../mappings/operations'

const howAnswered: Record<OperationRow['answer'], (row: OperationRow) => string> = {
  served: (row) => `served: ${(row.nerdgraph ?? []).map((n) => `\`${n}\``).join(', ')}`,
  forwarded: () => 'forwarded to the real v2 (`V2_URL`)',
  retired: () => '410, retired',
  unsupported: () => '501, not supported',
}

/** The markdown table, one line per row, grouped by resource in table order. */
export function operationsMarkdown(rows: readonly OperationRow[] = operations): string {
  const lines = ['| resource | v2 operation | how v2bridge answers |', '| --- | --- | --- |']
  for (const row of rows) {
    const read = readsByPost(row) ? ' (also POST)' : ''
    const call = `\`${row.method} ${row.path}\`${read}`
    lines.push(
      `| ${row.resource} | ${call} ${row.summary.toLowerCase()} | ${howAnswered[row.answer](row)} |`
    )
  }
  return lines.join('\n')
}

export const tablePath = resolve(import.meta.dirname, '..', 'docs', 'api.md')
const start = '<!-- operations:start (npm run docs:operations) -->'
const end = '<!-- operations:end -->'

/** The page with its operations section replaced by `table`. */
export function withTable(page: string, table: string): string {
  const from = page.indexOf(start)
  const to = page.indexOf(end)
  if (from < 0 || to < from) throw new Error(`docs/api.md lacks the ${start} … ${end} markers`)
  return `${page.slice(0, from + start.length)}\n\n${table}\n\n${page.slice(to)}`
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  writeFileSync(tablePath, withTable(readFileSync(tablePath, 'utf8'), operationsMarkdown()))
  console.log(`docs/api.md: ${operations.length} operations`)
}
