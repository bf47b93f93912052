/**
 * @module explorer/static-content
 * The static files (src/http/static-files.ts) themselves: the explorer's (src/explorer/files.ts), the
 * migration report page's (src/report/page.ts) and the
 * explain field table (mappings/explain-fields.ts) as `explain-fields.json`. For the Node entry, the
 * explain CLI and `npm run assets`, which writes them for the Worker; never in the Worker's import
 * graph (`npm run lint`).
 */
import { explainFields } from '../../mappings/explain-fields'
import { fieldsFile } from '../explain/fields'
import { explorerFiles } from './files'
import { reportPageFiles } from '../report/page'
import type { StaticFiles } from '../http/static-files'

export const staticFiles: StaticFiles = {
  ...explorerFiles,
  ...reportPageFiles,
  [fieldsFile]: JSON.stringify(explainFields),
}
