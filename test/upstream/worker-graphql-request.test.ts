/**
 * The Worker's stand-in for graphql-request (src/upstream/worker-graphql-request.ts, wrangler.toml
 * `[alias]`) against the package itself, as Node runs it: the same request on the wire and the same
 * outcome for every kind of answer NerdGraph or a proxy in front of it gives.
 */
import * as real from 'graphql-request'
import { describe, expect, it } from 'vitest'
import * as shim from '../../src/upstream/worker-graphql-request'

type Reply = [status: number, body: string, contentType?: string]

const replies: Record<string, Reply> = {
  data: [200, '{"data":{"actor":{"user":{"id":1}}}}', 'application/json'],
  'data and errors': [
    200,
    '{"data":{"a":null},"errors":[{"message":"partial","path":["a"]}]}',
    'application/json; charset=utf-8',
  ],
  'graphql-response+json': [200, '{"data":{"a":1}}', 'application/graphql-response+json'],
  'null data': [200, '{"data":null,"errors":[{"message":"x"}]}', 'application/json'],
  '401 with errors': [401, '{"errors":[{"message":"Invalid API key"}]}', 'application/json'],
  '429 plain': [429, 'Too Many Requests', 'text/plain'],
  '500 html': [500, '<html>oops</html>', 'text/html'],
  '200 html': [200, '<html>proxy</html>', 'text/html'],
  '200 truncated json': [200, '{"data":{"a":', 'application/json'],
  '200 array': [200, '[1,2]', 'application/json'],
  '200 data not object': [200, '{"data":5}', 'application/json'],
  '200 no content type': [200, '{"data":{"a":1}}'],
}

async function outcome(lib: typeof shim | typeof real, reply: Reply) {
  const sent: { headers: Record<string, string>; body: string; method: string }[] = []
  const client: Pick<shim.GraphQLClient, 'rawRequest'> = new lib.GraphQLClient(
    'http://nerdgraph.test/graphql',
    {
      fetch: async (_input: RequestInfo | URL, init?: RequestInit) => {
        sent.push({
          method: String(init?.method),
          headers: Object.fromEntries(new Headers(init?.headers)),
          body: String(init?.body),
        })
        const [status, body, type] = reply
        return new Response(body, { status, headers: type ? { 'Content-Type': type } : {} })
      },
      headers: { 'User-Agent': 'v2bridge' },
      errorPolicy: 'all',
      excludeOperationName: true,
    }
  )
  try {
    const res = await client.rawRequest<unknown>({
      query: 'query Q($n: Int) { a }',
      variables: { n: 1 },
      requestHeaders: { 'API-Key': 'NRAK-X' },
    })
    return { sent, ok: { status: res.status, data: res.data, errors: res.errors } }
  } catch (err) {
    const e = err as { response?: { status: number; errors?: unknown }; name: string }
    return {
      sent,
      threw: e.response
        ? { client: true, status: e.response.status, errors: e.response.errors }
        : { client: false },
    }
  }
}

describe("the Worker's graphql-request", () => {
  for (const [name, reply] of Object.entries(replies)) {
    it(`answers as graphql-request does: ${name}`, async () => {
      const [ours, theirs] = [await outcome(shim, reply), await outcome(real, reply)]
      expect(ours).toEqual(theirs)
    })
  }

  it('sends a body given already serialised as it stands (src/upstream/nerdgraph.ts)', async () => {
    let sent = ''
    const client = new shim.GraphQLClient('http://nerdgraph.test/graphql', {
      fetch: async (_input: RequestInfo | URL, init?: RequestInit) => {
        sent = String(init?.body)
        return new Response('{"data":{"a":1}}', { headers: { 'Content-Type': 'application/json' } })
      },
    })
    const json = JSON.stringify({ query: 'query Q { a }', variables: { n: 1 } })
    const res = await client.rawRequest<unknown>({
      query: 'query Q { a }',
      variables: { n: 1 },
      json,
    })
    expect([sent, res.data]).toEqual([json, { a: 1 }])
  })

  it('builds the document with gql as written', () => {
    const name = 'x'
    expect(shim.gql`query ${name} { a }`).toBe(real.gql`query ${name} { a }`)
  })
})
