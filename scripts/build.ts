/**
 * `npm run build`: the Node server and the `v2bridge` command as plain-JavaScript ES modules,
 * `dist/node.js` and `dist/cli.js` (plus source maps), run by `npm start` and bin/v2bridge.js with
 * the runtime dependencies only. Packages stay external (installed by `npm ci --omit=dev`); the
 * build fails if the bundle imports a package that is not a runtime dependency (a dev-only package
 * would be missing in production).
 */
import { existsSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join, resolve } from 'node:path'
import { build } from 'esbuild'

const root = resolve(import.meta.dirname, '..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>
  engines: { node: string }
}

const withDemo = existsSync(join(root, 'simulator/index.ts'))

const result = await build({
  absWorkingDir: root,
  // The server, the `v2bridge` command (bin/v2bridge.js runs dist/cli.js when present) and the
  // demo it loads for `v2bridge demo` (v2bridge in front of the simulator). A build without the
  // simulator (the Dockerfile copies only src/) has no demo.
  entryPoints: {
    node: 'src/node.ts',
    cli: 'src/cli/main.ts',
    ...(withDemo ? { demo: 'scripts/demo-server.ts' } : {}),
  },
  outdir: 'dist',
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
  console.error(`build: dist/ imports packages that are not runtime dependencies: ${missing}`)
  process.exit(1)
}
const sizes = ['node', 'cli', ...(withDemo ? ['demo'] : [])].map(
  (name) =>
    `dist/${name}.js ${((result.metafile.outputs[`dist/${name}.js`]?.bytes ?? 0) / 1024).toFixed(0)} KiB`
)
console.log(`${sizes.join(', ')}; imports ${[...imported].sort().join(', ')}`)
