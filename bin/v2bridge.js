#!/usr/bin/env node
// The `v2bridge` command: the built CLI (dist/cli.js) when present, else the TypeScript source
// through tsx (a development install). The demo (dist/demo.js, or scripts/demo-server.ts) is loaded
// only when `v2bridge demo` runs: it brings the NerdGraph simulator, which src/ never imports.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const built = new URL('../dist/cli.js', import.meta.url)
const isBuilt = existsSync(fileURLToPath(built))
if (!isBuilt) {
  const { register } = await import('tsx/esm/api')
  register()
}
const { main } = await import(
  isBuilt ? built.href : new URL('../src/cli/main.ts', import.meta.url).href
)
const demoModule = new URL(
  isBuilt ? '../dist/demo.js' : '../scripts/demo-server.ts',
  import.meta.url
)

const io = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  env: process.env,
  startDemo: existsSync(fileURLToPath(demoModule))
    ? async (env) => (await import(demoModule.href)).startDemo(env)
    : undefined,
}
const result = await main(process.argv.slice(2), io)
if (typeof result === 'number') process.exit(result)
const stop = async () => {
  await result.close()
  process.exit(0)
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
