/**
 * `npm run build`: the Node server as one plain-JavaScript ES module, `dist/node.js` (plus its source
 * map), run by `npm start` with the runtime dependencies only. Packages stay external (installed by
 * `npm ci --omit=dev`); the build fails if the bundle imports a package that is not a runtime
 * dependency (a dev-only package would be missing in production).
 */
import { readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join, resolve } from 'node:path'
import { build } from 'esbuild'

const root = resolve(import.meta.dirname, '..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>
  engines: { node: string }
}

const result = await build({
  absWorkingDir: root,
  entryPoints: ['src/node.ts'],
  outfile: 'dist/node.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: `node${pkg.engines.node.replace(/^>=/, '')}`,
  packages: 'external',
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
})

const packageOf = (spec: string) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/')
const builtins = new Set(builtinModules)
const imported = new Set(
  Object.values(result.metafile.outputs)
    .flatMap((o) => o.imports)
    .filter((i) => i.external && !i.path.startsWith('node:') && !builtins.has(i.path))
    .map((i) => packageOf(i.path))
)
const missing = [...imported].filter((name) => !(name in pkg.dependencies))
if (missing.length) {
  console.error(
    `build: dist/node.js imports packages that are not runtime dependencies: ${missing}`
  )
  process.exit(1)
}
const bytes = result.metafile.outputs['dist/node.js']?.bytes ?? 0
console.log(
  `dist/node.js: ${(bytes / 1024).toFixed(0)} KiB; imports ${[...imported].sort().join(', ')}`
)
