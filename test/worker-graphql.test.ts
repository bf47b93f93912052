import { GraphQLClient } from 'graphql-request'
import { describe, expect, it, vi } from 'vitest'
import { Kind, parse, print } from '../src/upstream/worker-graphql'

// graphql-request here sees what the Worker bundle gives it: the stand-in, not graphql-js.
vi.mock('graphql', () => import('../src/upstream/worker-graphql'))

describe("the Worker's stand-in for graphql-js (wrangler.toml [alias])", () => {
  it('fails loudly if parse or print is ever called', () => {
    expect(() => parse()).toThrow('not bundled in the Worker')
    expect(() => print()).toThrow('not bundled in the Worker')
    expect(Kind.OPERATION_DEFINITION).toBe('OperationDefinition')
  })

  it('is not needed by graphql-request for a string document with excludeOperationName', async () => {
    let body = ''
    const client = new GraphQLClient('http://nerdgraph.test/graphql', {
      excludeOperationName: true,
      fetch: async (_input: RequestInfo | URL, init?: RequestInit) => {
        body = String(init?.body)
        return new Response('{"data":{"ok":1}}', {
          headers: { 'Content-Type': 'application/json' },
        })
      },
    })
    const res = await client.rawRequest<{ ok: number }>('query Q { ok }')
    expect(res.data).toEqual({ ok: 1 })
    expect(JSON.parse(body)).toEqual({ query: 'query Q { ok }' })
  })
})
