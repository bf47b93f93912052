/** v2bridge's Node entry as a real child process: started, awaited until it listens, stopped. */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url))

export interface ChildServer {
  url: string
  child: ChildProcess
  /** Exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>
  stdout: () => string
  stderr: () => string
}

/** Runs `command` with `env` added to this process's environment; resolves once its stdout matches
 * `ready` (first group: the base URL), by default `v2bridge on http://…`. */
export function startChild(
  command: readonly string[],
  env: Record<string, string>,
  { cwd = repoRoot, ready = /v2bridge on (http:\/\/\S+?)\/v2/ } = {}
): Promise<ChildServer> {
  const [file, ...args] = command
  const child = spawn(file!, args, { cwd, env: { ...process.env, ...env } })
  let out = ''
  let err = ''
  child.stderr!.on('data', (b: Buffer) => (err += b))
  const exited = new Promise<number | string>((done) =>
    child.once('exit', (code, signal) => done(code ?? signal ?? 'unknown'))
  )
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (b: Buffer) => {
      out += b
      const m = ready.exec(out)
      if (m) resolve({ url: m[1]!, child, exited, stdout: () => out, stderr: () => err })
    })
    void exited.then((code) => reject(new Error(`exited ${code} before listening:\n${err}`)))
  })
}
