/**
 * @module resources/users/routes
 * Users (New Relic docs, rest-api-v2 `account-examples-v2/listing-users-your-account`); POST on the
 * list path is a read (hubot-newrelic2 posts `filter[email]`).
 */
import { Hono } from '../../http/hono'
import type { Env } from '../../http/env'
import { respond } from '../../http/respond'
import { listUsers, showUser } from './users'

export const users = new Hono<Env>()

users.on(['GET', 'POST'], '/users', async (c) => {
  const { body, link } = await listUsers(c)
  return respond(c, body, link ? { Link: link } : {})
})

users.get('/users/:id', async (c) => respond(c, await showUser(c)))
