/** What a strict v2 client checks on every body (XML as the TONS sample and SENSU read it; numbers
 * as D-extract shows them; the main key first, as rubygem-reliquary needs; tags in
 * docs/sources.md). */
import { expect } from 'vitest'

const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/
const integerKeys = new Set([
  'id',
  'application',
  'application_host',
  'host_count',
  'instance_count',
  'port',
  'call_count',
  'count',
])
const integerListKeys = new Set(['application_instances', 'application_hosts', 'servers'])

export function expectStrictV2(body: Record<string, unknown>, mainKey: string): void {
  expect(Object.keys(body)[0]).toBe(mainKey)
  walk(body, '')
}

function walk(value: unknown, key: string): void {
  if (Array.isArray(value)) {
    const ids = integerListKeys.has(key) && value.every((v) => typeof v !== 'object')
    if (ids) for (const v of value) expect(Number.isInteger(v), key).toBe(true)
    value.forEach((v) => walk(v, key))
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) walk(v, k)
  } else if (integerKeys.has(key)) {
    expect(Number.isInteger(value), `${key} = ${String(value)}`).toBe(true)
  } else if (key.endsWith('_at') || key === 'from' || key === 'to') {
    expect(value, key).toMatch(time)
  } else if (typeof value === 'number') {
    expect(Number.isFinite(value), key).toBe(true)
  }
}
