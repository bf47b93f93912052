/**
 * @module routes/key-transactions
 * Key transactions (D-summary); POST on the list path is a read (src/params.ts).
 */
import { Hono } from '../hono'
import type { Env } from '../env'
import { listKeyTransactions, showKeyTransaction } from '../key-transactions/load'
import { respond } from '../respond'

export const keyTransactions = new Hono<Env>()

keyTransactions.on(['GET', 'POST'], '/key_transactions', async (c) => {
  const { body, link } = await listKeyTransactions(c)
  return respond(c, body, link ? { Link: link } : {})
})

keyTransactions.get('/key_transactions/:id', async (c) => respond(c, await showKeyTransaction(c)))
