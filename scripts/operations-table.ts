/**
 * `npm run docs:operations`: writes the README's table of every v2 operation from
 * mappings/operations.ts, between the `operations:start` / `operations:end` markers.
 * test/operations.test.ts fails when the README and the table differ.
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

export const readmePath = resolve(import.meta.dirname, '..', 'README.md')
const start = '<!-- operations:start (npm run docs:operations) -->'
const end = '<!-- operations:end -->'

/** The README with its operations section replaced by `table`. */
export function withTable(readme: string, table: string): string {
  const from = readme.indexOf(start)
  const to = readme.indexOf(end)
  if (from < 0 || to < from) throw new Error(`README.md lacks the ${start} … ${end} markers`)
  return `${readme.slice(0, from + start.length)}\n\n${table}\n\n${readme.slice(to)}`
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const readme = readFileSync(readmePath, 'utf8')
  writeFileSync(readmePath, withTable(readme, operationsMarkdown()))
  console.log(`README.md: ${operations.length} operations`)
}
