/**
 * @module servers/servers
 * The Servers product was retired on 15 May 2018 (paultyng/go-newrelic issue #1; v2 applications
 * still carry `links.servers: []`). Pollers that still walk `servers.json` keep running: the list is
 * empty and every server ID is unknown [INFERRED proposal; New Relic's live answer is
 * UNCONFIRMED]. The key is still checked upstream, so a bad key gets 401 as on every v2 path.
 */
import { gql } from 'graphql-request'
import type { Context } from 'hono'
import type { Env } from '../env'
import { V2Error } from '../errors'

export const keyCheckDocument = gql`
  query KeyCheck {
    actor {
      user {
        id
      }
    }
  }
`

export const noServer = 'No Server found with the given ID'

async function checkKey(c: Context<Env>): Promise<void> {
  await c.get('nerdgraph').query<unknown>(keyCheckDocument)
}

export async function listServers(c: Context<Env>) {
  await checkKey(c)
  return { servers: [] }
}

export async function unknownServer(c: Context<Env>): Promise<never> {
  await checkKey(c)
  throw new V2Error(404, noServer)
}
