/**
 * @module explorer/files
 * The explorer's static files by name: the page, its script and stylesheet, and the catalog of every
 * v2 operation (mappings/operations.ts) with its parameters, example body and documentation
 * (src/explorer/params.ts): static files
 * (src/http/static-files.ts), from memory on Node and from the `ASSETS` binding on Workers.
 */
import { operations } from '../../mappings/operations'
import { docsLink, explorerBodies, explorerParams } from './params'
import { explorerCss, explorerHtml } from './page'
import { explorerScript } from './script'

export type ExplorerFileName =
  'explorer/page.html' | 'explorer/app.js' | 'explorer/app.css' | 'explorer/catalog.json'

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
      params: explorerParams[`${row.method} ${row.path}`] ?? [],
      example: explorerBodies[`${row.method} ${row.path}`] ?? null,
      docs: docsLink(row.resource, row.path),
    }))
  )
}

export const explorerFiles: Readonly<Record<ExplorerFileName, string>> = {
  'explorer/page.html': explorerHtml(),
  'explorer/app.js': explorerScript,
  'explorer/app.css': explorerCss,
  'explorer/catalog.json': catalog(),
}
