/**
 * @module resources/alerts/routes
 * The alerts endpoints New Relic retires, translated to NerdGraph (D-migrate):
 * events, incidents (with acknowledge and close), violations, channels and policy channels.
 */
import { Hono } from '../../http/hono'
import { createChannel } from './channel-create'
import { deleteChannel, listChannels } from './channels'
import { incidentAction, listIncidents } from './incidents'
import { addPolicyChannels, removePolicyChannel } from './policy-channels'
import { listEvents } from './events'
import { listViolations } from './violations'
import type { Env } from '../../http/env'
import { respond } from '../../http/respond'

export const alerts = new Hono<Env>()

const linked = (r: {
  body: Record<string, unknown>
  link: string | undefined
}): [Record<string, unknown>, Record<string, string>] => [r.body, r.link ? { Link: r.link } : {}]

alerts.get('/alerts_events', async (c) => respond(c, ...linked(await listEvents(c))))
alerts.get('/alerts_incidents', async (c) => respond(c, ...linked(await listIncidents(c))))
alerts.get('/alerts_violations', async (c) => respond(c, ...linked(await listViolations(c))))

alerts.put('/alerts_incidents/:id/acknowledge', async (c) =>
  respond(c, await incidentAction(c, 'acknowledge'))
)
alerts.put('/alerts_incidents/:id/close', async (c) => respond(c, await incidentAction(c, 'close')))

alerts.get('/alerts_channels', async (c) => respond(c, ...linked(await listChannels(c))))
alerts.post('/alerts_channels', async (c) => respond(c, await createChannel(c), {}, 201))
alerts.delete('/alerts_channels/:channel_id', async (c) => respond(c, await deleteChannel(c)))
alerts.put('/alerts_policy_channels', async (c) => respond(c, await addPolicyChannels(c)))
alerts.delete('/alerts_policy_channels', async (c) => respond(c, await removePolicyChannel(c)))
