import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'

const key = 'NRAK-DEMO0000000000000000000000'
const base = 'https://v2bridge.test'

describe('request bodies inside workerd', () => {
  it('answers 413 to a streamed body past 64 KiB, reading no more of it', async () => {
    // The test writes the body itself into a native stream, so the upload that the Worker stops
    // reading ends in a rejected write the test awaits, not in a pump workerd reports as uncaught.
    const chunk = new TextEncoder().encode(`names[]=${'a'.repeat(16 * 1024 - 9)}&`)
    const { readable, writable } = new IdentityTransformStream()
    const writer = writable.getWriter()
    let written = 0
    const upload = (async () => {
      while (written < 64 * 1024 * 1024) {
        await writer.write(chunk)
        written += chunk.byteLength
      }
      await writer.close()
    })().then(
      () => 'sent in full',
      (err: unknown) => (err instanceof Error ? err.message : String(err))
    )
    const res = await SELF.fetch(`${base}/v2/applications.json`, {
      method: 'POST',
      headers: { 'X-Api-Key': key, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: readable,
    })
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({ error: { title: 'Request body too large' } })
    expect(await upload).toBe('Network connection lost.')
    // Read as a stream (no Content-Length to refuse it by): the 64 KiB it took, then no more.
    expect(written).toBeGreaterThanOrEqual(64 * 1024)
    expect(written).toBeLessThan(4 * 1024 * 1024)
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
