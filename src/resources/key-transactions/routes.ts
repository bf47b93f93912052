/**
 * @module resources/key-transactions/routes
 * Key transactions (D-summary); POST on the list path is a read (src/http/params.ts).
 */
import { Hono } from '../../http/hono'
import type { Env } from '../../http/env'
import { listKeyTransactions, showKeyTransaction } from './load'
import { respond } from '../../http/respond'

export const keyTransactions = new Hono<Env>()

keyTransactions.on(['GET', 'POST'], '/key_transactions', async (c) => {
  const { body, link } = await listKeyTransactions(c)
  return respond(c, body, link ? { Link: link } : {})
})

keyTransactions.get('/key_transactions/:id', async (c) => respond(c, await showKeyTransaction(c)))
