import { describe, expect, it } from 'vitest'
import { DEMO_KEYS, startSimulatorServer } from '../../simulator'

describe('startSimulatorServer', () => {
  it('serves /graphql on a free loopback port and closes', async () => {
    const server = await startSimulatorServer({ port: 0 })
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'API-Key': DEMO_KEYS.all, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ actor { accounts { id name } } }' }),
      })
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({
        data: {
          actor: {
            accounts: [
              { id: 1000001, name: 'Demo Production' },
              { id: 1000002, name: 'Demo Staging' },
            ],
          },
        },
      })
      expect(server.simulator.stats().graphqlRequests).toBe(1)
    } finally {
      await server.close()
    }
  })
})
