/**
 * @module explorer/files
 * The explorer's static files by name: the page, its script and stylesheet, and the catalog of every
 * v2 operation (mappings/operations.ts) with the parameters to offer. The Node entry serves them
 * from memory; `npm run assets` writes them to `assets/explorer/` for the Worker's static assets
 * (wrangler.toml `[assets]`), so none of them is part of the Worker's script.
 */
import { operations } from '../../mappings/operations'
import { explorerBodies, explorerParams } from './params'
import { explorerCss, explorerHtml } from './page'
import { explorerScript } from './script'

export const explorerFileNames = ['page.html', 'app.js', 'app.css', 'catalog.json'] as const
export type ExplorerFileName = (typeof explorerFileNames)[number]
export type ExplorerFiles = Readonly<Record<ExplorerFileName, string>>

/** The catalog the page lists. */
function catalog(): string {
  return JSON.stringify(
    operations.map((row) => ({
      method: row.method,
      path: row.path,
      resource: row.resource,
      summary: row.summary,
      answer: row.answer,
      nerdgraph: 'nerdgraph' in row ? row.nerdgraph : [],
      params: (row.method === 'GET' && explorerParams[row.path]) || [],
      body: explorerBodies[`${row.method} ${row.path}`] ?? null,
    }))
  )
}

export const explorerFiles: ExplorerFiles = {
  'page.html': explorerHtml(),
  'app.js': explorerScript,
  'app.css': explorerCss,
  'catalog.json': catalog(),
}
