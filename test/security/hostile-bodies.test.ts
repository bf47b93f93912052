/**
 * Bodies built to cost CPU (issue 22, item 1): every format is read in one linear pass and refused
 * past its bounds with a v2 title. Before the fix a 160 KB XML body of 40,000 repeated elements took
 * 25 s (each repeat copied the list so far); the time bounds below are regression guards two orders
 * of magnitude above what a linear parse takes, not performance targets (those are in bench/).
 */
import { describe, expect, it } from 'vitest'
import { paramsFromBody, maxBodyParams } from '../../src/http/params'
import { maxXmlElements, xmlBody } from '../../src/http/xml-body'
import { DEMO_KEYS, harness } from '../helpers/harness'

const timed = <T>(fn: () => T): [T | Error, number] => {
  const started = performance.now()
  try {
    return [fn(), performance.now() - started]
  } catch (err) {
    return [err as Error, performance.now() - started]
  }
}

describe('hostile bodies', () => {
  it('reads a repeated XML element into one list in linear time', () => {
    const text = `<label><id>${'<i>7</i>'.repeat(maxXmlElements - 2)}</id></label>`
    const [value, ms] = timed(() => xmlBody(text))
    const ids = (value as { label: { id: { i: string[] } } }).label.id.i
    expect(ids).toHaveLength(maxXmlElements - 2)
    expect(ids.every((i) => i === '7')).toBe(true)
    expect(ms).toBeLessThan(1000)
  })

  it('refuses XML past its element cap with a v2 title, without building it', () => {
    const [err, ms] = timed(() => xmlBody(`<deployment>${'<a/>'.repeat(40_000)}</deployment>`))
    expect(err).toMatchObject({
      status: 400,
      title: `More than ${maxXmlElements} elements in the XML request body`,
    })
    expect(ms).toBeLessThan(1000)
  })

  it('keeps an element named __proto__ as a field, as JSON.parse does', () => {
    const value = xmlBody('<a><__proto__><x>1</x></__proto__><__proto__>2</__proto__></a>') as {
      a: Record<string, unknown>
    }
    expect(Object.getPrototypeOf(value.a)).toBe(Object.prototype)
    expect(Object.hasOwn(value.a, '__proto__')).toBe(true)
    expect(Object.getOwnPropertyDescriptor(value.a, '__proto__')!.value).toEqual([{ x: '1' }, '2'])
  })

  it('refuses form, JSON and XML bodies of more than the parameter cap before building them', () => {
    const title = `More than ${maxBodyParams} parameters in the request body`
    const bodies: [string, string][] = [
      ['a&'.repeat(500_000), 'application/x-www-form-urlencoded'],
      [`{"a":[${'1,'.repeat(400_000)}1]}`, 'application/json'],
      [`{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":1`).join(',')}}`, 'application/json'],
    ]
    for (const [text, type] of bodies) {
      const [err, ms] = timed(() => paramsFromBody(text, type))
      expect(err, type).toMatchObject({ status: 400, title })
      expect(ms, type).toBeLessThan(1000)
    }
    expect(paramsFromBody('a=1&&b=2&', 'application/x-www-form-urlencoded')).toEqual([
      ['a', '1'],
      ['b', '2'],
    ])
    const ids = Array.from({ length: maxBodyParams }, (_, i) => `ids[]=${i}`).join('&')
    expect(paramsFromBody(ids, 'application/x-www-form-urlencoded')).toHaveLength(maxBodyParams)
  })

  it('answers the 160 KB XML deployment 400 in v2 shape, and 401 for a made-up key without reading it', async () => {
    const { app } = harness()
    const body = `<deployment>${'<a/>'.repeat(40_000)}</deployment>`
    const send = (key: string) =>
      app.request('/v2/applications/1/deployments.json', {
        method: 'POST',
        headers: {
          'X-Api-Key': key,
          'Content-Type': 'application/xml',
          'Content-Length': String(body.length),
        },
        body,
      })
    const started = performance.now()
    const res = await send(DEMO_KEYS.all)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      error: { title: `More than ${maxXmlElements} elements in the XML request body` },
    })
    // A body larger than a read's waits for a key NerdGraph accepts (issue 22, item 8).
    const bogus = await send('NRAK-ANYTHING')
    expect(bogus.status).toBe(401)
    expect(await bogus.json()).toEqual({ error: { title: 'Invalid API Key' } })
  })
})

describe('body caps per route (issue 22, item 8)', () => {
  const send = (
    app: ReturnType<typeof harness>['app'],
    method: string,
    path: string,
    bytes: number
  ) =>
    app.request(path, {
      method,
      headers: {
        'X-Api-Key': 'NRAK-ANYTHING',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: `pad=${'x'.repeat(bytes - 4)}`,
    })

  it('refuses a body past what its route can carry with 413, before any NerdGraph request', async () => {
    const h = harness()
    for (const [method, path, cap] of [
      ['PUT', '/v2/applications/9045822.json', 16],
      ['POST', '/v2/browser_applications.json', 16],
      ['PUT', '/v2/labels.json', 64],
      ['POST', '/v2/alerts_channels.json', 64],
      ['POST', '/v2/applications/9045822/deployments.json', 1024],
      ['POST', '/deployments.xml', 1024],
    ] as const) {
      const over = await send(h.app, method, path, cap * 1024 + 1)
      expect(over.status, path).toBe(413)
      const under = await send(h.app, method, path, cap * 1024)
      expect(under.status, path).not.toBe(413)
    }
    // A list read by POST reads as a GET: 64 KiB.
    expect((await send(h.app, 'POST', '/v2/applications.json', 64 * 1024 + 1)).status).toBe(413)
    expect((await send(h.app, 'POST', '/v2/applications.json', 64 * 1024)).status).toBe(401)
  })
})
