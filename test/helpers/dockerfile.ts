/**
 * Runs a Dockerfile's steps without Docker (no engine runs here): each stage gets a directory as its
 * filesystem root; COPY copies from the build context (minus .dockerignore) or an earlier stage, RUN
 * runs through `sh -c` in the stage's WORKDIR with its ENV. A stage FROM an earlier stage starts from a
 * copy of its files and settings (WORKDIR, ENV, USER, EXPOSE, HEALTHCHECK, ENTRYPOINT, CMD), as an image
 * built on another does. Only the instructions v2bridge's Dockerfile uses are understood; any other
 * fails loudly.
 */
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, posix, relative } from 'node:path'

export interface Stage {
  name: string
  from: string
  root: string
  workdir: string
  env: Record<string, string>
  user?: string
  healthcheck?: string[]
  entrypoint?: string[]
  cmd?: string[]
  expose: string[]
}

/** Instructions with `\` continuations joined; comments and blank lines dropped. */
export function instructions(text: string): [string, string][] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [, op, rest] = /^(\S+)\s+(.*)$/.exec(l)!
      return [op!.toUpperCase(), rest!]
    })
}

/** A .dockerignore pattern as a test on context-relative paths (`**`, `*`, prefixes). */
function ignoreTest(context: string): (path: string) => boolean {
  const file = join(context, '.dockerignore')
  const patterns = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'))
        .map((p) => {
          const body = p
            .replace(/^\/+/, '')
            .split('**/')
            .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
            .join('(?:.*/)?')
          return new RegExp(`^${body}(?:/.*)?$`)
        })
    : []
  return (path) => patterns.some((p) => p.test(path))
}

const hasTimeout = ['/usr/bin/timeout', '/bin/timeout'].some((p) => existsSync(p))

export function runDockerfile(context: string, work: string, dockerfile = 'Dockerfile'): Stage[] {
  const ignored = ignoreTest(context)
  const stages: Stage[] = []
  const at = (s: Stage, path: string) => join(s.root, posix.resolve(s.workdir, path))
  for (const [op, args] of instructions(readFileSync(join(context, dockerfile), 'utf8'))) {
    const stage = stages.at(-1)!
    if (op === 'FROM') {
      const [from, , name] = args.split(/\s+/)
      const root = join(work, `stage-${stages.length}`)
      mkdirSync(root, { recursive: true })
      const parent = stages.find((s) => s.name.toLowerCase() === from!.toLowerCase())
      if (parent) cpSync(parent.root, root, { recursive: true, verbatimSymlinks: true })
      stages.push({
        ...parent,
        name: name ?? String(stages.length),
        from: from!,
        root,
        workdir: parent?.workdir ?? '/',
        env: { ...parent?.env },
        expose: [...(parent?.expose ?? [])],
      })
    } else if (op === 'WORKDIR') {
      stage.workdir = posix.resolve(stage.workdir, args)
      mkdirSync(at(stage, '.'), { recursive: true })
    } else if (op === 'COPY') {
      const words = args.split(/\s+/)
      const from = words[0]!.startsWith('--from=') ? words.shift()!.slice(7) : undefined
      const dest = words.pop()!
      const source = from ? stages.find((s) => s.name === from) : undefined
      for (const src of words) {
        const origin = source ? at(source, src) : join(context, src)
        const target =
          dest.endsWith('/') || words.length > 1
            ? join(at(stage, dest), posix.basename(src))
            : at(stage, dest)
        mkdirSync(dirname(target), { recursive: true })
        cpSync(origin, target, {
          recursive: true,
          filter: (p) => source !== undefined || !ignored(relative(context, p)),
        })
      }
    } else if (op === 'RUN') {
      // A step that cleans npm's cache gets a cache of its own, as each Docker build step has:
      // cleaning the machine's shared ~/.npm would break every other npm running beside the test.
      const ownCache = /\bnpm cache clean\b/.test(args)
        ? { npm_config_cache: mkdtempSync(join(tmpdir(), 'v2bridge-npm-cache-')) }
        : {}
      try {
        // A step that hangs (an `npm ci` stuck after its last fetch was seen here once) fails after
        // 4 minutes: this call blocks the test runner's own timers. coreutils `timeout` ends the
        // step's whole process group, not only `sh`.
        const guard = hasTimeout ? ['timeout', '--kill-after=10', '240'] : []
        const [file, ...rest] = [...guard, 'sh', '-c', args]
        execFileSync(file!, rest, {
          cwd: at(stage, '.'),
          env: { ...process.env, ...stage.env, npm_config_prefer_offline: 'true', ...ownCache },
          stdio: 'pipe',
        })
      } finally {
        if (ownCache.npm_config_cache)
          rmSync(ownCache.npm_config_cache, { recursive: true, force: true })
      }
    } else if (op === 'ENV') {
      for (const [, k, v] of args.matchAll(/(\w+)=("[^"]*"|\S+)/g))
        stage.env[k!] = v!.replace(/^"|"$/g, '')
    } else if (op === 'USER') stage.user = args
    else if (op === 'EXPOSE') stage.expose.push(...args.split(/\s+/))
    else if (op === 'HEALTHCHECK')
      stage.healthcheck = JSON.parse(args.replace(/^.*?CMD\s+/, '')) as string[]
    else if (op === 'ENTRYPOINT') {
      // As in Docker, a stage's own ENTRYPOINT drops the CMD it inherited.
      stage.entrypoint = JSON.parse(args) as string[]
      stage.cmd = undefined
    } else if (op === 'CMD') stage.cmd = JSON.parse(args) as string[]
    else throw new Error(`runDockerfile does not understand ${op}`)
  }
  return stages
}
