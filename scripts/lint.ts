/**
 * `npm run lint`: the project's own rules, checked over the source tree. typescript-eslint
 * does not support TypeScript 7 yet, and these rules are the ones that matter here.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { importCircles, importEdges, layerProblems } from './import-rules'

const root = resolve(import.meta.dirname, '..')
const problems: string[] = []
const report = (file: string, line: number, message: string) =>
  problems.push(`${relative(root, file)}:${line}: ${message}`)

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (name === 'node_modules' || name.startsWith('.')) return []
    return statSync(path).isDirectory() ? walk(path) : /\.(ts|mts)$/.test(name) ? [path] : []
  })
}

const files = ['src', 'simulator', 'mappings', 'test', 'scripts', 'bench']
  .map((d) => join(root, d))
  .filter((d) => {
    try {
      return statSync(d).isDirectory()
    } catch {
      return false
    }
  })
  .flatMap(walk)

const envAllowed = new Set(['src/node.ts', 'simulator/serve.ts'])

/** A comment must cite a source a reader of the repository can open (docs/sources.md): not the
 * team's notes outside it, by path, section or file name. */
const privateCitation =
  /\.\.\/shared|contract\s*§|\b(nerdgraph|v2-rest-api|v2-more-endpoints|design|style|toolchain)\.md\b|\bnerdgraph-(schema|queries)\.graphql\b|\bv2-explorer\b/

/** The comment part of a line: all of it after a leading `//`, `/*` or `*`, else a trailing `// …`. */
function commentOf(text: string): string | undefined {
  if (/^\s*(\/\/|\/\*|\*)/.test(text)) return text
  return /\s\/\/\s(.*)$/.exec(text)?.[1]
}

function checkCitations(file: string, lines: string[], commentOfLine = commentOf) {
  lines.forEach((text, i) => {
    const comment = commentOfLine(text)
    if (comment !== undefined && privateCitation.test(comment))
      report(file, i + 1, 'cite a public source or a file in the repository (docs/sources.md)')
  })
}

for (const file of files) {
  const rel = relative(root, file)
  const lines = readFileSync(file, 'utf8').split('\n')
  const base = rel.split('/').at(-1)!
  if (!/^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+)*\.ts$/.test(base))
    report(file, 1, 'file names are kebab-case')
  checkCitations(file, lines)
  lines.forEach((text, i) => {
    const n = i + 1
    if (/import\s*\{\s*z\s*\}\s*from\s*'zod'/.test(text))
      report(file, n, "write `import * as z from 'zod'` (the named import pulls every locale)")
    if (rel.startsWith('test/') && /\b(it|describe|test)\.only\(/.test(text))
      report(file, n, '.only left in a test')
    if (/^\s*\/\/\s*(it|describe|test)\(/.test(text)) report(file, n, 'commented-out test')
    if (!/^(src|simulator|mappings)\//.test(rel)) return
    if (/process\.env/.test(text) && !envAllowed.has(rel))
      report(file, n, 'process.env is read only by the Node entries')
    if (/(:\s*any\b|as any\b|<any>)/.test(text)) report(file, n, 'no `any`')
    if (!rel.startsWith('simulator/') && /\bswitch\s*\(/.test(text))
      report(file, n, 'no switch over v2 names: use a mapping table')
  })
}

/** The same for the `#` comments of the shell scripts, the Dockerfile and wrangler.toml. */
const hashCommented = [
  ...readdirSync(join(root, 'scripts'))
    .filter((name) => name.endsWith('.sh'))
    .map((name) => join(root, 'scripts', name)),
  join(root, 'Dockerfile'),
  join(root, 'wrangler.toml'),
].filter((file) => {
  try {
    return statSync(file).isFile()
  } catch {
    return false
  }
})
for (const file of hashCommented)
  checkCitations(file, readFileSync(file, 'utf8').split('\n'), (text) =>
    /^\s*#/.test(text) ? text : undefined
  )

/** The Worker's import graph must not reach the simulator, graphql-js execution, tests or node:. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'/gm)]
    .filter((m) => !/^\s*(import|export)\s+type\s/.test(m[0]))
    .map((m) => m[1]!)
}

const seen = new Set<string>()
const stack = [join(root, 'src/worker.ts')]
while (stack.length) {
  const file = stack.pop()!
  if (seen.has(file)) continue
  seen.add(file)
  for (const spec of importsOf(file)) {
    if (spec.startsWith('.')) {
      const target = resolve(dirname(file), spec)
      const path = [target + '.ts', join(target, 'index.ts'), target].find((p) => {
        try {
          return statSync(p).isFile()
        } catch {
          return false
        }
      })
      if (!path) report(file, 1, `cannot resolve ${spec}`)
      else if (relative(root, path).startsWith('simulator/'))
        report(file, 1, `the Worker imports the simulator (${spec})`)
      else if (relative(root, path) === 'src/explorer/static-content.ts')
        report(
          file,
          1,
          `the Worker imports the static files (${spec}): read them (src/http/static-files.ts)`
        )
      else stack.push(path)
    } else if (
      /^(node:|vitest|fast-check|@hono\/node-server|graphql$|graphql\/execution)/.test(spec)
    ) {
      report(file, 1, `the Worker imports ${spec}`)
    } else if (spec === 'zod' || spec.startsWith('zod/')) {
      report(
        file,
        1,
        `the Worker imports ${spec} (8 KiB gzipped): see src/core/config.ts, mappings/schemas.ts`
      )
    } else if (spec === 'hono') {
      report(
        file,
        1,
        "the Worker imports 'hono': take Hono from src/http/hono.ts (TrieRouter only)"
      )
    }
  }
}

/** The layer table and no import circle (scripts/import-rules.ts, docs/architecture.md). */
const sources = files.map((file) => ({
  path: relative(root, file).replaceAll('\\', '/'),
  text: readFileSync(file, 'utf8'),
}))
const edges = importEdges(sources)
for (const e of edges) if (!e.to) problems.push(`${e.from}:${e.line}: cannot resolve an import`)
problems.push(...layerProblems(edges))
const circles = importCircles(edges)
for (const circle of circles) problems.push(`import circle: ${circle.join(' ↔ ')}`)

if (problems.length) {
  console.error(problems.join('\n'))
  console.error(`lint: ${problems.length} problem(s)`)
  process.exit(1)
}
console.log(
  `lint: ${files.length} files clean, ${edges.length} imports within the layer table and no circle; Worker import graph: ${seen.size} modules`
)
