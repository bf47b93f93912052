/**
 * POST as a read (issue 23, items 1 and 2): hubot-newrelic2 sends every call as POST with a form
 * body, so every served read path without a create reads a POST as its GET; the two create paths
 * (browser and mobile applications) never read a list, whatever the body.
 */
import { describe, expect, it } from 'vitest'
import { harness } from '../helpers/harness'

const form = { 'Content-Type': 'application/x-www-form-urlencoded' }

describe('POST on read paths', () => {
  it('reads a key transaction and an application by POST, as hubot-newrelic2 sends them', async () => {
    const h = harness()
    for (const path of ['/v2/key_transactions.json', '/v2/applications/9045822.json']) {
      const get = await h.get(path)
      const post = await h.get(path, { method: 'POST', headers: form, body: '' })
      expect(post.status, path).toBe(200)
      expect(await post.json()).toEqual(await get.json())
    }
    const list = (await (await h.get('/v2/key_transactions.json')).json()) as {
      key_transactions: { id: number }[]
    }
    const id = list.key_transactions[0]!.id
    const one = await h.get(`/v2/key_transactions/${id}.json`, {
      method: 'POST',
      headers: form,
      body: 'x=1',
    })
    expect(one.status).toBe(200)
    expect(((await one.json()) as { key_transaction: { id: number } }).key_transaction.id).toBe(id)
  })

  it('reads the parameters of the POST body, as a GET reads its query', async () => {
    const h = harness()
    const byPost = await h.get('/v2/users.json', {
      method: 'POST',
      headers: form,
      body: 'filter[email]=nobody@example.com',
    })
    expect(byPost.status).toBe(200)
    expect(await byPost.json()).toEqual(
      await (await h.get('/v2/users.json?filter[email]=nobody@example.com')).json()
    )
  })

  for (const [path, wrapper] of [
    ['/v2/browser_applications.json', 'browser_application'],
    ['/v2/mobile_applications.json', 'mobile_application'],
  ] as const) {
    it(`answers a POST to ${path} without a readable wrapper 400, never with the list`, async () => {
      const h = harness()
      for (const [type, body] of [
        ['application/x-www-form-urlencoded', ''],
        ['text/plain', JSON.stringify({ [wrapper]: { name: 'x' } })],
        ['application/json', JSON.stringify({ [wrapper]: 'x' })],
        ['application/json', `{"__proto__":{"${wrapper}":{"name":"x"}}}`],
      ] as const) {
        const res = await h.get(path, { method: 'POST', headers: { 'Content-Type': type }, body })
        expect(res.status, `${type} ${body}`).toBe(400)
        expect(await res.json()).toEqual({ error: { title: `missing parameter: ${wrapper}` } })
      }
    })
  }
})
