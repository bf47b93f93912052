#!/usr/bin/env node
// The `v2bridge` command: the built CLI (dist/cli.js) when present, else the TypeScript source
// through tsx (a development install).
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const built = new URL('../dist/cli.js', import.meta.url)
let main
if (existsSync(fileURLToPath(built))) {
  ;({ main } = await import(built.href))
} else {
  const { register } = await import('tsx/esm/api')
  register()
  ;({ main } = await import(new URL('../src/cli/main.ts', import.meta.url).href))
}

const io = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  env: process.env,
}
const result = await main(process.argv.slice(2), io)
if (typeof result === 'number') process.exit(result)
const stop = async () => {
  await result.close()
  process.exit(0)
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
