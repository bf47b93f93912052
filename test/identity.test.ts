import { describe, expect, it } from 'vitest'
import { apmApplicationGuid, decodeGuid, keyFingerprint } from '../src/core/identity'

describe('identity', () => {
  it('builds the documented unpadded GUID (entity-definitions guid_spec example)', () => {
    expect(apmApplicationGuid(1, 23)).toBe('MXxBUE18QVBQTElDQVRJT058MjM')
  })

  it('decodes padded, unpadded and URL-safe GUIDs', () => {
    const guid = apmApplicationGuid(3806526, 553448202)
    expect(decodeGuid(guid)).toEqual({
      accountId: 3806526,
      domain: 'APM',
      type: 'APPLICATION',
      domainId: '553448202',
    })
    expect(decodeGuid(guid + '==')?.domainId).toBe('553448202')
    expect(decodeGuid('not a guid!')).toBeUndefined()
    expect(decodeGuid(btoa('x|y'))).toBeUndefined()
  })

  it('fingerprints keys without revealing them', async () => {
    const a = await keyFingerprint('NRAK-DEMO0000000000000000000000')
    expect(a).toMatch(/^[0-9a-f]{64}$/)
    expect(a).not.toContain('DEMO')
    expect(await keyFingerprint('NRAK-DEMO1111111111111111111111')).not.toBe(a)
  })
})
