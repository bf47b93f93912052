/**
 * The table of every v2 operation (mappings/operations.ts) against the app's routes, New Relic's v2
 * explorer definitions (the Swagger 1.1 files of api.newrelic.com/v2/definitions.json,
 * docs/sources.md; read from a `shared` checkout beside the repository when present) and docs/api.md.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { answers, operations, type OperationRow } from '../mappings/operations'
import { createApp } from '../src/app'
import { operationRouter, routePattern } from '../src/http/operations'
import { operationsMarkdown, tablePath } from '../scripts/operations-table'
import { harness } from './helpers/harness'

const rows: readonly OperationRow[] = operations
const shape = (path: string) => path.replace(/\{[^}]*\}/g, '').replace(/:\w+/g, ':')

describe('the operations table', () => {
  it('has one row per method and path, each valid', () => {
    const keys = rows.map((r) => `${r.method} ${shape(routePattern(r.path))}`)
    expect(new Set(keys).size).toBe(keys.length)
    for (const row of rows) {
      expect(answers).toContain(row.answer)
      expect(row.path).toMatch(/^(\/v2)?(\/[a-z_]+|\/\{[a-z_]+\})+$/)
      if (row.answer === 'retired') expect(row.title).toMatch(/retired|deprecated/)
      if (row.answer === 'served') expect(row.nerdgraph?.length).toBeGreaterThan(0)
    }
  })

  it('holds the 84 explorer operations plus rows that each name their source', () => {
    expect(rows.filter((r) => !r.source)).toHaveLength(84)
    expect(rows.filter((r) => r.source).every((r) => r.source!.length > 10)).toBe(true)
  })

  it('serves exactly the operations the app has routes for', () => {
    const routed = new Set(
      createApp()
        .routes.filter((r) => r.method !== 'ALL' && /^\/(v2\/|deployments)/.test(r.path))
        .map((r) => `${r.method} ${shape(r.path)}`)
    )
    const served = new Set(
      rows
        .filter((r) => r.answer === 'served')
        .flatMap((r) => [r, ...('postReads' in r && r.postReads ? [{ ...r, method: 'POST' }] : [])])
        .map((r) => `${r.method} ${shape(routePattern(r.path))}`)
    )
    expect([...routed].sort()).toEqual([...served].sort())
  })

  it('matches the table in docs/api.md (npm run docs:operations rewrites it)', () => {
    const page = readFileSync(tablePath, 'utf8')
    const section = /<!-- operations:start[^>]*-->([\s\S]*?)<!-- operations:end -->/.exec(page)
    const cells = (table: string) =>
      table
        .split('\n')
        .filter((l) => l.startsWith('|') && !/^\|[\s|-]+\|$/.test(l))
        .map((l) => l.split('|').map((cell) => cell.trim()))
    expect(cells(section?.[1] ?? '')).toEqual(cells(operationsMarkdown()))
  })
})

const explorer = fileURLToPath(new URL('../../shared/contract/v2-explorer', import.meta.url))
const hasExplorer = existsSync(explorer)
if (!hasExplorer) console.warn(`skipped: ${explorer} is absent (no ../shared checkout)`)

describe.skipIf(!hasExplorer)("against New Relic's v2 explorer definitions", () => {
  it('lists every explorer operation with its method and path', () => {
    const defined: string[] = []
    for (const file of readdirSync(explorer).filter((f) => /^[a-z_]+\.json$/.test(f))) {
      const doc = JSON.parse(readFileSync(`${explorer}/${file}`, 'utf8')) as {
        apis?: { path: string; operations?: { httpMethod: string }[] }[]
      }
      for (const api of doc.apis ?? [])
        for (const op of api.operations ?? [])
          defined.push(`${op.httpMethod} ${api.path.replace('.{format}', '')}`)
    }
    expect(defined).toHaveLength(84)
    const ours = rows.filter((r) => !r.source).map((r) => `${r.method} ${r.path}`)
    expect(ours.sort()).toEqual(defined.sort())
  })
})

describe('answers read from the table', () => {
  const route = operationRouter()

  it('matches paths with any parameter name and lists the allowed methods', () => {
    expect(route('GET', '/v2/applications/12/hosts/34/metrics/data')).toMatchObject({
      row: { summary: 'Host metric data' },
      allowed: ['GET', 'HEAD', 'POST'],
    })
    expect(route('POST', '/v2/applications').row?.summary).toBe('List applications')
    expect(route('PATCH', '/v2/applications/1').row).toBeUndefined()
    expect(route('GET', '/v2/nothing')).toEqual({ row: undefined, allowed: [] })
  })

  it('keeps a bounded number of matches, frozen, and matches the same after thousands of paths', () => {
    const first = route('GET', '/v2/applications/7/hosts/8.json')
    expect(route('GET', '/v2/applications/7/hosts/8.json')).toBe(first)
    expect(Object.isFrozen(first) && Object.isFrozen(first.allowed)).toBe(true)
    for (let id = 0; id < 5000; id++) route('GET', `/v2/applications/${id}.json`)
    const again = route('GET', '/v2/applications/7/hosts/8.json')
    expect(again).not.toBe(first) // dropped past the bound, matched anew
    expect(again).toEqual(first)
    expect(route('PUT', '/v2/applications/4999.json').row?.summary).toBe('Update application')
    // Unknown and long paths, which anyone may send before a key is checked, are not kept.
    const unknown = route('GET', '/v2/nothing/here')
    expect(route('GET', '/v2/nothing/here')).not.toBe(unknown)
    const long = `/v2/applications/${'9'.repeat(300)}.json`
    expect(route('GET', long)).not.toBe(route('GET', long))
    expect(route('GET', long).row?.summary).toBe('Show application')
  })

  it('answers 410 with the replacement for a retired operation, in JSON and XML', async () => {
    const { get, sim } = harness()
    const res = await get('/v2/plugins.json')
    expect(res.status).toBe(410)
    expect(await res.json()).toEqual({
      error: {
        title:
          'The plugins API is retired: New Relic plugins reached end of life. Use New Relic integrations and NerdGraph instead.',
      },
    })
    const xml = await get('/v2/dashboards/5.xml', { method: 'DELETE' })
    expect(xml.status).toBe(410)
    expect(await xml.text()).toContain('<title>The dashboards API is retired. Use NerdGraph')
    expect(sim.stats().graphqlRequests).toBe(0)
  })

  it('answers 501 naming an operation v2bridge does not translate, not 404', async () => {
    const { get } = harness()
    const res = await get('/v2/users/7/reset_password.json', { method: 'POST' })
    expect(res.status).toBe(501)
    expect(await res.json()).toEqual({
      error: { title: 'POST /v2/users/{id}/reset_password is not supported by v2bridge' },
    })
  })

  it('answers 405 with Allow from the table for a method the path does not serve', async () => {
    const { get } = harness()
    const res = await get('/v2/plugins/3.json', { method: 'POST' })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('GET, HEAD')
  })

  it('still asks for a key before answering 410 or 501', async () => {
    const { get } = harness()
    const res = await get('/v2/usages/apm.json', { key: null })
    expect(res.status).toBe(401)
  })
})
