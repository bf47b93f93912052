/**
 * Where the command line sends the key, and for how long it waits (issue 40 items 8, 9 and 10): the
 * key goes only to https or loopback hosts, a redirect to another host is refused and never
 * followed with the key; verify has a deadline per call and for the run, and comparing nothing is
 * exit 2 with the reason; doctor --bridge on a 200 that is not JSON says so in a line, no stack.
 * Hostile servers on loopback, real sockets.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { main, type Io } from '../../src/cli/main'
import { DEMO_KEYS } from '../../simulator'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise((r) => {
          s.closeAllConnections()
          s.close(r)
        })
    )
  )
})

/** A server on 127.0.0.1 (its URL; `seen` holds the key header of every request it got). */
async function serve(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: (string | undefined)[] = []
  const server = createServer((req, res) => {
    seen.push(req.headers['x-api-key'] as string | undefined)
    handle(req, res)
  })
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as { port: number }
  return { url: `http://127.0.0.1:${port}`, port, seen }
}

async function run(argv: string[], fetchImpl?: typeof fetch) {
  const out: string[] = []
  const err: string[] = []
  const io: Io = { out: (l) => out.push(l), err: (l) => err.push(l), env: {} }
  if (fetchImpl) io.fetch = fetchImpl
  const code = await main(argv, io)
  return { code, out: out.join('\n'), err }
}

/** Another host: the same machine under 0.0.0.0, another origin than 127.0.0.1. */
async function elsewhere() {
  const target = await serve((_, res) => res.end('{}'))
  const redirecting = await serve((req, res) => {
    res.writeHead(307, { Location: `http://0.0.0.0:${target.port}${req.url}` }).end()
  })
  return { target, redirecting }
}

const file = (name: string, text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'cli-')), name)
  writeFileSync(path, text)
  return path
}

describe('the key goes only to https or this machine, redirects included', () => {
  it('doctor --bridge refuses a redirect to another host and never sends the key there', async () => {
    const { target, redirecting } = await elsewhere()
    const { code, err } = await run(['doctor', '--bridge', redirecting.url, '--key', DEMO_KEYS.all])
    expect(code).toBe(2)
    expect(err).toEqual([
      `v2bridge: v2bridge at ${redirecting.url}/healthz redirects to http://0.0.0.0:${target.port}: the key is not sent to another host`,
    ])
    expect(target.seen).toEqual([])
  })

  it('verify --from-report refuses a redirect to another host', async () => {
    const { target, redirecting } = await elsewhere()
    const { code, err } = await run([
      'verify',
      '--key',
      DEMO_KEYS.all,
      '--v2-url',
      `${redirecting.url}/v2`,
      '--from-report',
      `${redirecting.url}/v2bridge/report.json`,
    ])
    expect(code).toBe(2)
    expect(err[0]).toContain('redirects to http://0.0.0.0')
    expect(target.seen).toEqual([])
  })

  it.each([
    [['verify', '--v2-url', 'http://v2.example.com/v2'], 'v2 at http://v2.example.com/v2'],
    [
      ['verify', '--nerdgraph-url', 'http://ng.example.com/graphql'],
      'NerdGraph at http://ng.example.com/graphql',
    ],
    [['verify', '--bridge', 'http://bridge.example.com'], 'v2bridge at http://bridge.example.com'],
    [
      ['doctor', '--nerdgraph-url', 'http://ng.example.com/graphql'],
      'NerdGraph at http://ng.example.com/graphql',
    ],
  ])('%s: plain http to another host is refused before any request', async (argv, what) => {
    const sent: string[] = []
    const counting = (async (input: RequestInfo | URL) => {
      sent.push(String(input))
      throw new Error('sent')
    }) as typeof fetch
    const { code, err } = await run([...argv, '--key', DEMO_KEYS.all], counting)
    expect(code).toBe(2)
    expect(err).toEqual([
      `v2bridge: ${what} is not https: the key is sent only over TLS or to this machine (localhost)`,
    ])
    expect(sent).toEqual([])
  })
})

describe('verify: deadlines, and nothing compared is not a pass', () => {
  it('a v2 that drips its answer stops at the call deadline, exit 2', async () => {
    const drip = await serve((_, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.write('{"applications":[')
      const timer = setInterval(() => res.write(' '), 100)
      res.on('close', () => clearInterval(timer))
    })
    const urls = file('calls.txt', '/v2/applications.json\n')
    const started = Date.now()
    const { code, err } = await run([
      'verify',
      '--key',
      DEMO_KEYS.all,
      '--v2-url',
      `${drip.url}/v2`,
      '--nerdgraph-url',
      `${drip.url}/graphql`,
      '--urls',
      urls,
      '--timeout',
      '1',
    ])
    expect(code).toBe(2)
    expect(err[0]).toMatch(
      /^v2bridge: v2 at http:\/\/127\.0\.0\.1:\d+\/v2\/applications\.json could not be read/
    )
    expect(Date.now() - started).toBeLessThan(60_000) // the test's own bound, not a benchmark
  })

  it('the run stops at its deadline, exit 2', async () => {
    const slow = await serve((_, res) => {
      setTimeout(() => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'), 700)
    })
    const urls = file('calls.txt', '/v2/applications.json\n'.repeat(20))
    const { code, err } = await run([
      'verify',
      '--key',
      DEMO_KEYS.all,
      '--v2-url',
      `${slow.url}/v2`,
      '--nerdgraph-url',
      `${slow.url}/graphql`,
      '--urls',
      urls,
      '--deadline',
      '1',
    ])
    expect(code).toBe(2)
    expect(err).toEqual([
      'v2bridge: verify ran past its deadline (1 s) before every call was compared',
    ])
  })

  it.each([
    [
      '{"report":{"operations":[]}}',
      'no call was compared: the report has no v2 read v2bridge serves',
    ],
    ['{"anything":1}', 'the report has no operations: is it a report.json of v2bridge?'],
  ])('--from-report %s: exit 2 with the reason', async (report, reason) => {
    const v2 = await serve((_, res) =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"applications":[]}')
    )
    const { code, err, out } = await run([
      'verify',
      '--key',
      DEMO_KEYS.all,
      '--v2-url',
      `${v2.url}/v2`,
      '--nerdgraph-url',
      `${v2.url}/graphql`,
      '--from-report',
      file('report.json', report),
    ])
    expect(code).toBe(2)
    expect(err).toEqual([`v2bridge: ${reason}`])
    expect(out).not.toContain('no difference')
  })
})

describe('doctor --bridge', () => {
  it('on a 200 that is not JSON says so in one line, no stack', async () => {
    const html = await serve((_, res) =>
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>hello</html>')
    )
    const { code, out, err } = await run(['doctor', '--bridge', html.url, '--key', DEMO_KEYS.all])
    expect(code).toBe(1)
    expect(err).toEqual([])
    expect(out).toContain(
      `fail      ${html.url}/v2/applications.json answered HTTP 200 without a v2 application list: not a v2bridge?`
    )
    expect(out).not.toMatch(/\n\s+at /)
  })
})
