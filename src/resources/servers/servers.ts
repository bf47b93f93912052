/**
 * @module resources/servers/servers
 * The Servers product was retired on 15 May 2018 (paultyng/go-newrelic issue #1; v2 applications
 * still carry `links.servers: []`). Pollers that still walk `servers.json` keep running: the list is
 * empty and every server ID is unknown [INFERRED proposal; New Relic's live answer is
 * UNCONFIRMED]. The key is still checked upstream, so a bad key gets 401 as on every v2 path.
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import { V2Error } from '../../core/errors'
import { checkKey as checkKeyOf } from '../../upstream/key-check'

export const noServer = 'No Server found with the given ID'

const checkKey = (c: Context<Env>) => checkKeyOf(c.get('nerdgraph'))

export async function listServers(c: Context<Env>) {
  await checkKey(c)
  return { servers: [] }
}

export async function unknownServer(c: Context<Env>): Promise<never> {
  await checkKey(c)
  throw new V2Error(404, noServer)
}
