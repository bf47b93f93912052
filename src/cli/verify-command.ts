/**
 * @module cli/verify-command
 * `v2bridge verify` on the command line: its options, its usage lines, reading the URL file, and
 * printing the table or JSON (src/cli/verify.ts runs it).
 */
import { readFile } from 'node:fs/promises'
import type { Region } from '../core/config'
import { verificationBody } from '../report/view'
import { Unreachable, verify, verifyLines } from './verify'
import { cliFetch } from './key-transport'

export const verifyUsage = `  verify --key KEY [--region us|eu] [--v2-url URL] [--nerdgraph-url URL]
         [--urls FILE | --from-report URL|FILE | --apps N] [--allow PATH]... [--format table|json]
      compares the real v2 with v2bridge call by call (exit 0: no difference beyond noise but the
      --allow paths; 1: some; 2: v2, NerdGraph or the report unreachable)`

export const verifyOptions = {
  'v2-url': { type: 'string' },
  urls: { type: 'string' },
  'from-report': { type: 'string' },
  apps: { type: 'string' },
  allow: { type: 'string', multiple: true },
} as const

interface Given {
  'v2-url'?: string | undefined
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
      ...(urls !== undefined ? { urls } : {}),
      ...(fromReport ? { fromReport } : {}),
      fetch: cliFetch(x.io.fetch),
    })
  } catch (err) {
    if (err instanceof Unreachable) return x.fail(err.message)
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
