/**
 * `npm run assets`: writes the Worker's static assets (wrangler.toml `[assets]`, directory `assets/`):
 * the explorer's files (src/explorer/files.ts) under `assets/explorer/`. wrangler runs it (`[build]`)
 * before every `wrangler dev`, deploy and dry run; the workers tests run it in their global setup.
 * Generated, not committed: a file is rewritten only when its content changed.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { explorerFileNames, explorerFiles } from '../src/explorer/files'

export const assetsDir = fileURLToPath(new URL('../assets/', import.meta.url))

export function writeAssets(): void {
  const dir = `${assetsDir}explorer/`
  mkdirSync(dir, { recursive: true })
  for (const name of explorerFileNames) {
    const path = dir + name
    let old: string | undefined
    try {
      old = readFileSync(path, 'utf8')
    } catch {
      old = undefined
    }
    if (old !== explorerFiles[name]) writeFileSync(path, explorerFiles[name])
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) writeAssets()
