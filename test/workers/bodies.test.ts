import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'

const key = 'NRAK-DEMO0000000000000000000000'
const base = 'https://v2bridge.test'

describe('request bodies inside workerd', () => {
  it('answers 413 to a streamed body past 64 KiB, reading no more of it', async () => {
    const chunk = new TextEncoder().encode(`names[]=${'a'.repeat(16 * 1024 - 9)}&`)
    let pulled = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 64 * 1024 * 1024) return controller.close()
        pulled += chunk.byteLength
        controller.enqueue(chunk)
      },
    })
    const res = await SELF.fetch(`${base}/v2/applications.json`, {
      method: 'POST',
      headers: { 'X-Api-Key': key, 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
      // @ts-expect-error a stream body needs `duplex`
      duplex: 'half',
    })
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({ error: { title: 'Request body too large' } })
    expect(pulled).toBeLessThan(4 * 1024 * 1024)
  })

  it('answers 400 in v2 shape to deeply nested JSON', async () => {
    const res = await SELF.fetch(`${base}/v2/applications.json`, {
      method: 'POST',
      headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' },
      body: `{"names":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      error: { title: 'The JSON request body is nested deeper than 32 levels' },
    })
  })
})
