import { describe, expect, it } from 'vitest'
import { ConfigError, parseConfig } from '../src/core/config'
import { parseNodeConfig } from '../src/node/config'

describe('parseConfig', () => {
  it('defaults to the US endpoint on 127.0.0.1:8787', () => {
    expect(parseConfig({})).toEqual({
      region: 'us',
      nerdgraphUrl: 'https://api.newrelic.com/graphql',
      port: 8787,
      host: '127.0.0.1',
      accountId: undefined,
      upstreamTimeoutMs: 30000,
      upstreamMaxBytes: 32 * 2 ** 20,
      allowHttp: false,
      shutdownGraceMs: 8000,
      logLevel: 'info',
      metrics: undefined,
      keyMap: new Map(),
      v2Url: 'https://api.newrelic.com/v2',
      v2Forwarding: true,
      sharedAnswers: true,
      corsOrigins: '*',
      publicUrl: undefined,
      compare: { mode: undefined, sample: 1, inFlight: 64, perKey: 4 },
    })
  })

  it('adds the Node entry’s own settings with their defaults, and names every bad setting of both', () => {
    const node = parseNodeConfig({})
    expect(node.server).toEqual({
      headersTimeoutMs: 10000,
      requestTimeoutMs: 30000,
      keepAliveTimeoutMs: 5000,
      maxConnections: 4096,
    })
    expect(node.trustedProxies).toEqual([])
    expect(node.region).toBe('us')
    expect(parseNodeConfig({ REQUEST_TIMEOUT_MS: '2000' }).server.requestTimeoutMs).toBe(2000)
    expect(() => parseNodeConfig({ PORT: 'x', MAX_CONNECTIONS: '0' })).toThrow(
      /PORT: expected an integer from 0 to 65535\n {2}MAX_CONNECTIONS: expected an integer from 1 to 1000000/
    )
    expect(() => parseNodeConfig({ HEADERS_TIMEOUT_MS: '5' })).toThrow(ConfigError)
  })

  it('reads KEY_MAP as SHA-256 hex → user key, and names it without its content when invalid', () => {
    const hash = 'AB'.repeat(32)
    const map = parseConfig({ KEY_MAP: JSON.stringify({ [hash]: 'NRAK-X' }) }).keyMap
    expect([...map]).toEqual([['ab'.repeat(32), { key: 'NRAK-X' }]])
    for (const [bad, why] of [
      ['{"NRAK-SECRET', 'KEY_MAP: not valid JSON; expected a JSON object {"<SHA-256 hex'],
      [
        '[]',
        'KEY_MAP: expected a JSON object {"<SHA-256 hex of a legacy key>": "<user key>", …}, not an array',
      ],
      [
        '{"abc":"NRAK-SECRET"}',
        'KEY_MAP: entry 1: its name is not the SHA-256 hex of a legacy key (64 hex characters)',
      ],
      [
        `{"${hash}":"has space"}`,
        'KEY_MAP: entry 1: key is not a user key (1 to 256 visible ASCII characters, NRAK-…)',
      ],
    ]) {
      let message = ''
      try {
        parseConfig({ KEY_MAP: bad })
      } catch (err) {
        message = (err as Error).message
      }
      expect(message).toContain(why)
      expect(message).not.toContain('SECRET')
      expect(message).not.toContain('space')
    }
  })

  it('forwards to the v2 of the region unless V2_URL says otherwise, and can turn forwarding off', () => {
    expect(parseConfig({ REGION: 'eu' }).v2Url).toBe('https://api.eu.newrelic.com/v2')
    expect(parseConfig({ V2_URL: 'http://127.0.0.1:8788/v2' }).v2Url).toBe(
      'http://127.0.0.1:8788/v2'
    )
    expect(parseConfig({ V2_FORWARDING: 'false' }).v2Forwarding).toBe(false)
    expect(parseConfig({}).sharedAnswers).toBe(true)
    expect(parseConfig({ SHARED_ANSWERS: 'false' }).sharedAnswers).toBe(false)
    expect(() => parseConfig({ V2_URL: 'ftp://x' })).toThrow(/V2_URL/)
  })

  it('derives the EU endpoint from REGION and lets NERDGRAPH_URL override it', () => {
    expect(parseConfig({ REGION: 'eu' }).nerdgraphUrl).toBe('https://api.eu.newrelic.com/graphql')
    expect(
      parseConfig({ REGION: 'eu', NERDGRAPH_URL: 'http://127.0.0.1:8788/graphql' }).nerdgraphUrl
    ).toBe('http://127.0.0.1:8788/graphql')
  })

  it('coerces numbers and treats empty strings as unset', () => {
    const c = parseConfig({
      PORT: '9000',
      ACCOUNT_ID: '1000001',
      HOST: '',
      UPSTREAM_TIMEOUT_MS: '5000',
    })
    expect(c).toMatchObject({
      port: 9000,
      accountId: 1000001,
      host: '127.0.0.1',
      upstreamTimeoutMs: 5000,
    })
  })

  it('says what each bad setting should be', () => {
    expect(() =>
      parseConfig({ REGION: 'mars', PORT: '70000', ALLOW_HTTP: 'maybe', NERDGRAPH_URL: 'ftp://x' })
    ).toThrow(
      [
        'invalid v2bridge configuration:',
        '  REGION: expected us or eu',
        '  NERDGRAPH_URL: expected an http(s) URL',
        '  PORT: expected an integer from 0 to 65535',
        '  ALLOW_HTTP: expected true, false, 1, 0, yes or no',
      ].join('\n')
    )
  })

  it('names every bad setting in one clear message', () => {
    expect(() => parseConfig({ REGION: 'mars', PORT: 'eighty', NERDGRAPH_URL: 'ftp://x' })).toThrow(
      ConfigError
    )
    try {
      parseConfig({ REGION: 'mars', PORT: 'eighty' })
    } catch (e) {
      expect((e as Error).message).toMatch(/REGION/)
      expect((e as Error).message).toMatch(/PORT/)
    }
  })

  it('reads CORS_ORIGINS as * or a list of origins, and rejects anything else', () => {
    expect(parseConfig({}).corsOrigins).toBe('*')
    expect(
      parseConfig({ CORS_ORIGINS: 'https://a.example.com, http://b:3000' }).corsOrigins
    ).toEqual(['https://a.example.com', 'http://b:3000'])
    expect(() => parseConfig({ CORS_ORIGINS: 'https://a.example.com/path' })).toThrow(
      /CORS_ORIGINS/
    )
  })

  it('reads Worker vars given as numbers, trims URLs, and rejects what is not quite a setting', () => {
    expect(parseConfig({ UPSTREAM_TIMEOUT_MS: 5000, PORT: 0 })).toMatchObject({
      upstreamTimeoutMs: 5000,
      port: 0,
    })
    expect(
      parseConfig({ NERDGRAPH_URL: ' https://nerdgraph.example.com/graphql ' }).nerdgraphUrl
    ).toBe('https://nerdgraph.example.com/graphql')
    expect(() =>
      parseConfig({
        NERDGRAPH_URL: 'http:example.com',
        ACCOUNT_ID: '1.5',
        HOST: 8080,
        LOG_LEVEL: 'loud',
        METRICS: 'on',
        CORS_ORIGINS: '*, https://a.example.com',
      })
    ).toThrow(
      [
        'invalid v2bridge configuration:',
        '  NERDGRAPH_URL: expected an http(s) URL',
        '  HOST: expected a string',
        '  ACCOUNT_ID: expected an integer from 1 to 9999999999',
        '  LOG_LEVEL: expected debug, info, warn, error, silent',
        '  METRICS: expected true, false, 1, 0, yes or no',
        '  CORS_ORIGINS: expected * or a comma-separated list of origins like https://grafana.example.com',
      ].join('\n')
    )
  })
})
