/**
 * `npm run assets`: writes the Worker's static assets (wrangler.toml `[assets]`, directory `assets/`):
 * the static files of src/explorer/static-content.ts (the explorer's, the explain field table). wrangler runs
 * it (`[build]`) before every `wrangler dev`, deploy and dry run; the workers tests run it in their
 * global setup. Generated, not committed: a file is rewritten only when its content changed.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { staticFiles } from '../src/explorer/static-content'

export const assetsDir = fileURLToPath(new URL('../assets/', import.meta.url))

export function writeAssets(): void {
  for (const [name, text] of Object.entries(staticFiles)) {
    const path = assetsDir + name
    let old: string | undefined
    try {
      old = readFileSync(path, 'utf8')
    } catch {
      old = undefined
    }
    if (old === text) continue
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, text)
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) writeAssets()
