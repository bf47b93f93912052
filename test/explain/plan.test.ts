import { describe, expect, it } from 'vitest'
import { operations, type OperationRow } from '../../mappings/operations'
import { ExplainStop, notingClient, type SentDocument } from '../../src/upstream/explain-client'
import { explainBody, nrqlOf } from '../../src/explain/plan'
import type { NerdGraph } from '../../src/upstream/nerdgraph'

const rows: readonly OperationRow[] = operations
const mutation =
  'mutation Record($guid: EntityGuid!) { changeTrackingCreateDeployment(deployment: { entityGuid: $guid, version: "1" }) { deploymentId } }'

describe('the explaining client', () => {
  const upstream = () => {
    const calls: string[] = []
    const inner: NerdGraph = {
      query: async (document) => {
        calls.push(document)
        return { data: {} as never, errors: [] }
      },
    }
    return { calls, inner }
  }

  it('records a mutation instead of sending it, and stops the handler there', async () => {
    const { calls, inner } = upstream()
    const sent: SentDocument[] = []
    const client = notingClient(inner, sent, true)
    await expect(client.query(mutation, { guid: 'X' })).rejects.toBeInstanceOf(ExplainStop)
    expect(calls).toEqual([])
    expect(sent).toEqual([{ document: mutation, variables: { guid: 'X' }, lookup: false }])
  })

  it('sends lookups in explain mode, and everything outside it', async () => {
    const { calls, inner } = upstream()
    const sent: SentDocument[] = []
    await notingClient(inner, sent, true).query(
      'query A { actor { user { id } } }',
      {},
      { lookup: true }
    )
    await notingClient(inner, sent, false).query(mutation, { guid: 'X' })
    expect(calls).toHaveLength(2)
    expect(sent.map((s) => s.lookup)).toEqual([true, false])
  })
})

describe('the explain answer', () => {
  const at = (method: string, path: string) =>
    rows.find((r) => r.method === method && r.path === path)!

  it('says a forwarded operation goes to the real v2, without the key', () => {
    const body = explainBody({
      row: at('GET', '/v2/alerts_policies'),
      method: 'GET',
      url: new URL('https://bridge.example/v2/alerts_policies.json?filter[name]=x'),
      params: [['filter[name]', 'x']],
      sent: [],
      endpoint: 'https://api.eu.newrelic.com/graphql',
      region: 'eu',
      fields: {},
    }) as { explain: { forwarded: { url: string }; nerdgraph?: unknown } }
    expect(body.explain.forwarded.url).toBe(
      'https://api.eu.newrelic.com/v2/alerts_policies.json?filter[name]=x'
    )
    expect(body.explain.nerdgraph).toBeUndefined()
  })

  it('lists a mutation as a mutation with its curl line', () => {
    const body = explainBody({
      row: at('POST', '/v2/applications/{application_id}/deployments'),
      method: 'POST',
      url: new URL('https://bridge.example/v2/applications/1/deployments.json'),
      params: [],
      sent: [{ document: mutation, variables: { guid: 'X' }, lookup: false }],
      endpoint: 'https://api.newrelic.com/graphql',
      region: 'us',
      fields: {},
    }) as { explain: { nerdgraph: { kind: string; operation: string; curl: string }[] } }
    expect(body.explain.nerdgraph[0]).toMatchObject({ kind: 'mutation', operation: 'Record' })
    expect(body.explain.nerdgraph[0]!.curl).toMatch(
      /^curl -sS -X POST 'https:\/\/api.newrelic.com\/graphql'/
    )
  })

  it('finds NRQL in Nrql variables and written into the document', () => {
    const doc =
      'query Q($a: Int!, $n: Nrql!) { actor { account(id: $a) { x: nrql(query: $n) { results } y: nrql(query: "SELECT count(*) FROM \\"T\\"") { results } } } }'
    expect(nrqlOf(doc, { a: 1, n: 'SELECT 1 FROM Metric' })).toEqual([
      'SELECT 1 FROM Metric',
      'SELECT count(*) FROM "T"',
    ])
  })
})
