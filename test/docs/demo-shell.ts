/**
 * The demo as `npm run demo` starts it (scripts/demo-server.ts), in process on free ports, and a
 * bash that runs documented commands against it: `127.0.0.1:8787` and `:8788` in a command become
 * the demo's ports, and every curl reports its HTTP status. Children are spawned asynchronously: a
 * synchronous child talking to this process's servers would wait forever.
 */
import { spawn } from 'node:child_process'
import { startDemo } from '../../scripts/demo-server'
import { repoRoot } from '../helpers/child-server'

export type Demo = Awaited<ReturnType<typeof startDemo>>

/** The demo with its request lines kept out of the test output. */
export const startQuietDemo = () =>
  startDemo({ HOST: '127.0.0.1', PORT: '0', SIM_PORT: '0' }, () => {})

export function onDemo(demo: Demo, command: string): string {
  const host = (url: string) => new URL(url).host
  return command
    .replaceAll('127.0.0.1:8787', host(demo.bridge.url))
    .replaceAll('127.0.0.1:8788', host(demo.simulator.url))
}

export interface Ran {
  /** Per command, in order: its exit code and the HTTP status of each curl it ran. */
  results: { exit: number; statuses: number[] }[]
  stdout: string
  stderr: string
}

/** Runs each command in one bash, in order, none stopping the next. */
export function runCommands(
  commands: readonly string[],
  { cwd = repoRoot, env = {} as Record<string, string> } = {}
): Promise<Ran> {
  const script = [
    `curl() { command curl -sS -w '%{stderr}@@status %{http_code}\\n' "$@"; }`,
    // Only the local package: never a download from the registry.
    'npx() { command npx --no-install "$@"; }',
    'set -o pipefail',
    ...commands.flatMap((c, i) => [`echo '@@command ${i}' >&2`, c, `echo "@@exit ${i} $?" >&2`]),
  ].join('\n')
  const child = spawn('bash', ['-c', script], { cwd, env: { ...process.env, ...env } })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (b: Buffer) => (stdout += b))
  child.stderr.on('data', (b: Buffer) => (stderr += b))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('close', () => {
      const results = commands.map(() => ({ exit: -1, statuses: [] as number[] }))
      let current = -1
      for (const m of stderr.matchAll(/@@(command|status|exit) (\d+)(?: (\d+))?$/gm)) {
        if (m[1] === 'command') current = Number(m[2])
        else if (m[1] === 'status') results[current]?.statuses.push(Number(m[2]))
        else results[Number(m[2])]!.exit = Number(m[3])
      }
      resolve({ results, stdout, stderr })
    })
  })
}
