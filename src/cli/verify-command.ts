/**
 * @module cli/verify-command
 * `v2bridge verify` on the command line: its options, its usage lines, reading the URL file, and
 * printing the table or JSON (src/cli/verify.ts runs it).
 */
import { readFile } from 'node:fs/promises'
import type { Region } from '../core/config'
import { verificationBody } from '../report/view'
import { Unreachable, verify, verifyLines } from './verify'
import { cliFetch, KeyRefused } from './key-transport'

export const verifyUsage = `  verify --key KEY [--region us|eu] [--v2-url URL] [--nerdgraph-url URL | --bridge URL]
         [--urls FILE | --from-report URL|FILE | --apps N] [--allow PATH]... [--format table|json]
         [--timeout SECONDS] [--deadline SECONDS]
      compares the real v2 with v2bridge call by call: this process's v2bridge (its NerdGraph at
      --nerdgraph-url), or a deployed one (--bridge); at most --timeout (30) a call, --deadline
      (600) the run (exit 0: no difference beyond noise but documented ones and the --allow paths;
      1: some; 2: v2, NerdGraph, the bridge or the report unreachable, past the deadline, or no
      call compared)`

export const verifyOptions = {
  'v2-url': { type: 'string' },
  bridge: { type: 'string' },
  timeout: { type: 'string' },
  deadline: { type: 'string' },
  format: { type: 'string' },
  urls: { type: 'string' },
  'from-report': { type: 'string' },
  apps: { type: 'string' },
  allow: { type: 'string', multiple: true },
} as const

export interface Given {
  'v2-url'?: string | undefined
  bridge?: string | undefined
  timeout?: string | undefined
  deadline?: string | undefined
  key?: string | undefined
  region?: string | undefined
  account?: string | undefined
  method?: string | undefined
  'nerdgraph-url'?: string | undefined
  help?: boolean | undefined
  urls?: string | undefined
  'from-report'?: string | undefined
  apps?: string | undefined
  allow?: string[] | undefined
  format?: string | undefined
}

interface Context {
  key: string
  region: Region
  endpoint: string
  io: { out(line: string): void; fetch?: typeof fetch }
  fail(message: string): number
}

export async function runVerify(v: Given, x: Context): Promise<number> {
  const format = v.format ?? 'table'
  if (format !== 'table' && format !== 'json') return x.fail('--format is table or json')
  const apps = v.apps === undefined ? 3 : Number(v.apps)
  if (!(Number.isInteger(apps) && apps > 0 && apps <= 100)) return x.fail('--apps is 1 to 100')
  const seconds = (name: 'timeout' | 'deadline', fallback: number) => {
    const n = v[name] === undefined ? fallback : Number(v[name])
    return Number.isFinite(n) && n > 0 && n <= 86_400 ? n * 1000 : undefined
  }
  const timeoutMs = seconds('timeout', 30)
  const deadlineMs = seconds('deadline', 600)
  if (timeoutMs === undefined || deadlineMs === undefined)
    return x.fail('--timeout and --deadline are seconds, more than 0 and at most 86400')
  if (v.bridge !== undefined && v['nerdgraph-url'] !== undefined)
    return x.fail(
      '--bridge and --nerdgraph-url exclude each other: the bridge has its own NerdGraph'
    )
  let urls: string | undefined
  if (v.urls !== undefined) {
    try {
      urls = await readFile(v.urls, 'utf8')
    } catch (err) {
      return x.fail(`--urls: ${(err as Error).message}`)
    }
  }
  let fromReport = v['from-report']
  if (fromReport !== undefined && !/^https?:\/\//i.test(fromReport)) {
    try {
      fromReport = await readFile(fromReport, 'utf8') // a report downloaded as JSON
    } catch (err) {
      return x.fail(`--from-report: ${(err as Error).message}`)
    }
  }
  let result
  try {
    result = await verify({
      key: x.key,
      region: x.region,
      nerdgraphUrl: x.endpoint,
      apps,
      ...(v.allow ? { allow: v.allow } : {}),
      ...(v['v2-url'] ? { v2Url: v['v2-url'] } : {}),
      ...(v.bridge ? { bridge: v.bridge } : {}),
      timeoutMs,
      deadlineMs,
      ...(urls !== undefined ? { urls } : {}),
      ...(fromReport ? { fromReport } : {}),
      fetch: cliFetch(x.io.fetch),
    })
  } catch (err) {
    if (err instanceof Unreachable || err instanceof KeyRefused) return x.fail(err.message)
    throw err
  }
  if (format === 'json')
    x.io.out(
      JSON.stringify(
        { ok: result.ok, calls: result.calls, operations: verificationBody(result.operations) },
        null,
        2
      )
    )
  else for (const line of verifyLines(result)) x.io.out(line)
  return result.ok ? 0 : 1
}
