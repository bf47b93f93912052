import { describe, expect, it } from 'vitest'
import { instanceKey, mintIds, resolveId } from '../src/core/ids'

describe('minted host and instance IDs', () => {
  it('are positive 31-bit integers, stable across calls and input order', () => {
    const a = mintIds('host', 9045822, ['web-01', 'web-02', 'db-01'])
    const b = mintIds('host', 9045822, ['db-01', 'web-02', 'web-01', 'web-01'])
    expect([...a]).toEqual([...b].sort((x, y) => x[0].localeCompare(y[0])))
    for (const id of a.values()) {
      expect(Number.isInteger(id)).toBe(true)
      expect(id).toBeGreaterThan(0)
      expect(id).toBeLessThanOrEqual(0x7fffffff)
    }
    expect(a.get('web-01')).toBe(mintIds('host', 9045822, ['web-01']).get('web-01'))
  })

  it('differ between applications sharing a host name, and between hosts and instances', () => {
    const h1 = mintIds('host', 1, ['shared-host']).get('shared-host')
    const h2 = mintIds('host', 2, ['shared-host']).get('shared-host')
    const i1 = mintIds('instance', 1, ['shared-host']).get('shared-host')
    expect(new Set([h1, h2, i1]).size).toBe(3)
  })

  it('never collide within one application, even over 20,000 members', () => {
    const members = Array.from({ length: 20_000 }, (_, i) => `host-${i}.example.com`)
    const ids = mintIds('host', 42, members)
    expect(new Set(ids.values()).size).toBe(members.length)
  })

  it('resolve back to their member', () => {
    const ids = mintIds('instance', 7, [
      instanceKey('web-01', 'web-01:8080'),
      instanceKey('web-01', 'web-01:8081'),
    ])
    const id = ids.get(instanceKey('web-01', 'web-01:8081'))!
    expect(resolveId(ids, id)).toBe(instanceKey('web-01', 'web-01:8081'))
    expect(resolveId(ids, 12345)).toBeUndefined()
  })
})
