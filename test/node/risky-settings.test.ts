/**
 * Settings that would put something at risk or be silently dropped: a plain-http NERDGRAPH_URL or
 * V2_URL on another machine is named in the start line with the reason; a path in PUBLIC_URL is
 * refused with the reason; a KEY_MAP error says what is wrong (test/config.test.ts,
 * test/keys.test.ts).
 */
import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/core/config'
import { parseNodeConfig, settingWarnings } from '../../src/node/config'
import { startLine } from '../../src/node/lifecycle'

const url = 'http://127.0.0.1:8787'

describe('risky settings', () => {
  it('warns in the start line when NERDGRAPH_URL is plain http to another machine', () => {
    const config = parseNodeConfig({ NERDGRAPH_URL: 'http://nerdgraph.internal:8080/graphql' })
    const line = startLine(url, config)
    expect(line.level).toBe('warn')
    expect(line['warnings']).toEqual([
      "NERDGRAPH_URL is plain http to nerdgraph.internal: every caller's key goes there unencrypted; use https, or a proxy on this machine",
    ])
  })

  it('warns for V2_URL too while it forwards or compares, and not once forwarding is off', () => {
    const plain = { V2_URL: 'http://10.1.2.3/v2' }
    expect(settingWarnings(parseNodeConfig(plain))).toEqual([
      "V2_URL is plain http to 10.1.2.3: every caller's key goes there unencrypted; use https, or a proxy on this machine",
    ])
    expect(settingWarnings(parseNodeConfig({ ...plain, V2_FORWARDING: 'false' }))).toEqual([])
    expect(
      settingWarnings(parseNodeConfig({ ...plain, V2_FORWARDING: 'false', V2_COMPARE: 'v2' }))
    ).toHaveLength(1)
  })

  it('says nothing for https or a loopback upstream (the demo, a local proxy)', () => {
    for (const nerdgraph of [
      'https://api.newrelic.com/graphql',
      'http://127.0.0.1:8788/graphql',
      'http://localhost:8788/graphql',
      'http://[::1]:8788/graphql',
    ]) {
      const config = parseNodeConfig({ NERDGRAPH_URL: nerdgraph, V2_URL: 'http://127.0.0.2/v2' })
      const line = startLine(url, config)
      expect([line.level, line['warnings']], nerdgraph).toEqual(['info', undefined])
    }
  })

  it('refuses a path in PUBLIC_URL, saying it would be dropped, and takes an origin', () => {
    expect(() => parseNodeConfig({ PUBLIC_URL: 'https://example.com/v2bridge' })).toThrow(
      new ConfigError(
        'invalid v2bridge configuration:\n  PUBLIC_URL: expected an origin without a path, such as https://v2bridge.example.com (v2bridge answers at the root of its host; the path /v2bridge would be dropped from Link and Location)'
      )
    )
    expect(() => parseNodeConfig({ PUBLIC_URL: 'https://example.com/?a=1' })).toThrow(
      /PUBLIC_URL: .*a query would be dropped/
    )
    expect(parseNodeConfig({ PUBLIC_URL: 'https://v2.example.com:8443/' }).publicUrl).toBe(
      'https://v2.example.com:8443'
    )
  })
})
