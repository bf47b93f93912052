/**
 * The import rules of the tree (docs/architecture.md): which folder may import which, and no import
 * circle anywhere, type-only imports included. Pure over a list of files and their text, so a test
 * can run it on a fixture tree (test/lint/import-rules.test.ts); scripts/lint.ts runs it on the
 * project.
 */
import { dirname, join, normalize } from 'node:path'

/** Folder (or file) → the folders and files it may import besides itself. The longest matching
 * prefix decides. `own` lets a file import anything under its own folder of that prefix depth. */
export interface LayerRule {
  readonly may: readonly string[]
  /** A resource may import its own folder only: `src/resources/<name>/`. */
  readonly ownFolderDepth?: number
}

const core = ['mappings', 'src/core']
const upstream = [...core, 'src/upstream']
const http = [...upstream, 'src/http']
const entities = [...http, 'src/entities']

/** The layer table, top to bottom: entries → features → resources → entities → http → upstream →
 * core → mappings. Read it with docs/architecture.md. */
export const layerTable: Record<string, LayerRule> = {
  mappings: { may: ['mappings'] },
  'src/core': { may: core },
  'src/upstream': { may: upstream },
  'src/http': { may: http },
  'src/entities': { may: entities },
  'src/resources': { may: entities, ownFolderDepth: 3 },
  'src/explain': { may: [...entities, 'src/explain'] },
  // Compare mode: the comparison rules and their runs; the report shows its aggregates.
  'src/compare': { may: [...http, 'src/compare'] },
  'src/report': { may: [...entities, 'src/explain', 'src/compare', 'src/report'] },
  // The explorer's static content also carries the report page (src/explorer/static-content.ts).
  'src/explorer': { may: [...http, 'src/explain', 'src/report', 'src/explorer'] },
  'src/node': { may: [...http, 'src/node'] },
  'src/cli': { may: ['mappings', 'src'] },
  'src/app.ts': { may: ['mappings', 'src'] },
  'src/node.ts': { may: ['mappings', 'src'] },
  'src/worker.ts': { may: ['mappings', 'src'] },
  simulator: { may: ['simulator'] },
}

/** Outside src/: what may reach into the simulator. Its own tests see inside it; everyone else
 * (the demo, tests, benches) goes through its public entry. */
export const simulatorEntry = 'simulator/index.ts'
export const simulatorInsiders = ['simulator', 'test/simulator']

export interface SourceFile {
  /** Path from the project root, `/`-separated. */
  path: string
  text: string
}

export interface ImportEdge {
  from: string
  to: string
  line: number
}

const importPattern =
  /^[ \t]*(?:import|export)\s(?:[^'";]*?\sfrom\s)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm

/** Every relative import of every file (static, type-only and dynamic), resolved to a file of the
 * list (`x` → `x.ts`, `x/index.ts` or `x`). Unresolved imports come back with `to` = ''. */
export function importEdges(files: readonly SourceFile[]): ImportEdge[] {
  const known = new Set(files.map((f) => f.path))
  const edges: ImportEdge[] = []
  for (const file of files) {
    for (const m of file.text.matchAll(importPattern)) {
      const spec = m[1] ?? m[2]!
      if (!spec.startsWith('.')) continue
      const base = normalize(join(dirname(file.path), spec)).replaceAll('\\', '/')
      const to = [`${base}.ts`, `${base}/index.ts`, base].find((p) => known.has(p)) ?? ''
      const line = file.text.slice(0, m.index).split('\n').length
      edges.push({ from: file.path, to, line })
    }
  }
  return edges
}

const under = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`)

function ruleOf(path: string): [string, LayerRule] | undefined {
  let best: [string, LayerRule] | undefined
  for (const [prefix, rule] of Object.entries(layerTable))
    if (under(path, prefix) && (!best || prefix.length > best[0].length)) best = [prefix, rule]
  return best
}

/** Imports that break the layer table or reach into the simulator. */
export function layerProblems(edges: readonly ImportEdge[]): string[] {
  const problems: string[] = []
  for (const { from, to, line } of edges) {
    if (!to) continue
    if (under(to, 'simulator') && to !== simulatorEntry) {
      if (!simulatorInsiders.some((f) => under(from, f)))
        problems.push(
          `${from}:${line}: imports ${to}: outside the simulator, import ${simulatorEntry}`
        )
    }
    if (under(from, 'src') && under(to, 'simulator'))
      problems.push(`${from}:${line}: src/ never imports the simulator (${to})`)
    const found = ruleOf(from)
    if (!found) continue
    const [prefix, rule] = found
    const own =
      rule.ownFolderDepth !== undefined &&
      from.split('/').slice(0, rule.ownFolderDepth).join('/') ===
        to.split('/').slice(0, rule.ownFolderDepth).join('/')
    const allowed = own || (rule.ownFolderDepth === undefined && under(to, prefix))
    if (!allowed && !rule.may.some((f) => under(to, f)))
      problems.push(`${from}:${line}: ${prefix} may not import ${to} (scripts/import-rules.ts)`)
  }
  return problems
}

/** Every import circle (strongly connected components of more than one file, or a file importing
 * itself), each as its files in one order (Tarjan's algorithm). */
export function importCircles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>()
  for (const { from, to } of edges) {
    if (!to) continue
    if (!next.has(from)) next.set(from, [])
    next.get(from)!.push(to)
  }
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const circles: string[][] = []
  let counter = 0
  const visit = (v: string) => {
    index.set(v, counter)
    low.set(v, counter++)
    stack.push(v)
    onStack.add(v)
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || (next.get(v) ?? []).includes(v)) circles.push(component.sort())
    }
  }
  for (const v of next.keys()) if (!index.has(v)) visit(v)
  return circles
}
