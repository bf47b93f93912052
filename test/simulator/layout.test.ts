/**
 * The simulator's internal layering (simulator/README.md, "Layout"): which folder may import which,
 * no import circle (type-only imports included), nothing imported from outside simulator/, and an
 * index.ts that only re-exports. Edges come from scripts/import-rules.ts, as `npm run lint` reads them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importCircles, importEdges, type SourceFile } from '../../scripts/import-rules'

const root = join(import.meta.dirname, '../..')

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : name.endsWith('.ts') ? [path] : []
  })
}

const files: SourceFile[] = walk(join(root, 'simulator')).map((file) => ({
  path: relative(root, file).replaceAll('\\', '/'),
  text: readFileSync(file, 'utf8'),
}))
const edges = importEdges(files)

/** Folder (or file) → what it may import besides itself. Files at the top of simulator/ (the
 * entry, createSimulator, the Node server) may import anything. */
const may: Record<string, readonly string[]> = {
  'simulator/types.ts': [],
  'simulator/nrql': ['simulator/types.ts'],
  'simulator/data': ['simulator/types.ts'],
  'simulator/graphql': ['simulator/data', 'simulator/nrql', 'simulator/types.ts'],
  'simulator/v2': ['simulator/data'],
  'simulator/server': ['simulator/data', 'simulator/graphql', 'simulator/v2'],
}
const under = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`)
const layerOf = (path: string) => Object.keys(may).find((layer) => under(path, layer))

describe('simulator layout', () => {
  it('resolves every relative import inside simulator/ (nothing from src/ or mappings/)', () => {
    expect(edges.filter((e) => !e.to).map((e) => `${e.from}:${e.line}`)).toEqual([])
    const outside = files.filter((f) => /from '(\.\.\/)+(src|mappings)\//.test(f.text))
    expect(outside.map((f) => f.path)).toEqual([])
  })

  it('imports only downwards: types.ts ← nrql/, data/ ← graphql/, v2/ ← server/ ← the top', () => {
    const wrong = edges.filter(({ from, to }) => {
      const layer = layerOf(from)
      if (!layer || !to || under(to, layer)) return false
      return !may[layer]!.some((allowed) => under(to, allowed))
    })
    expect(wrong.map((e) => `${e.from}:${e.line} → ${e.to}`)).toEqual([])
  })

  it('has no import circle, type-only imports included', () => {
    expect(importCircles(edges)).toEqual([])
  })

  it('keeps index.ts a list of re-exports that nothing inside imports', () => {
    expect(edges.filter((e) => e.to === 'simulator/index.ts').map((e) => e.from)).toEqual([])
    const index = files.find((f) => f.path === 'simulator/index.ts')!.text
    const code = index
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '')
      .replace(/export\s+(type\s+)?\{[^}]*\}\s+from\s+'[^']+'/g, '')
      .replace(/export\s+(type\s+)?\*\s+from\s+'[^']+'/g, '')
    expect(code.trim()).toBe('')
  })
})
