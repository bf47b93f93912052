/**
 * @module simulator/v2/render — the stand-in's v2 bodies as text: JSON as is, and XML as real v2
 * writes it with Rails `to_xml` (TONS: a real metric-data answer; SENSU reads `applications.xml`;
 * tags in docs/sources.md): the XML declaration, a root named `<first key>_response`, two spaces per
 * level, array items named by the singular of their array, `nil="true"` for null, empty arrays and
 * objects as one empty element, no type attributes, and numbers printed the Ruby way (`21.0` for a
 * whole number below 100 unless the field holds an integer).
 */

export type V2Body = Record<string, unknown>

export function v2Json(body: V2Body): string {
  return JSON.stringify(body)
}

export function v2Xml(body: V2Body): string {
  const names = Object.keys(body)
  const root = `${names.length > 0 ? names[0] : 'empty'}_response`
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<${root}>`]
  for (const name of names) writeElement(out, name, body[name], 1)
  out.push(`</${root}>`, '')
  return out.join('\n')
}

/** Fields of the v2 API explorer models (SW11) that hold integers or epoch-ms times: printed
 * without `.0`. */
const INTEGER_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'policy_id',
  'condition_id',
  'channel_id',
  'incident_id',
  'entity_id',
  'group_id',
  'entity_group_id',
  'violation',
  'duration',
  'count',
  'timestamp',
  'opened_at',
  'closed_at',
  // APM counts (TONS: `<call_count>64144</call_count>`) and integer fields of the APM models
  'call_count',
  'error_count',
  's',
  't',
  'f',
  'host_count',
  'instance_count',
  'concurrent_instance_count',
  'port',
  'application',
  'application_host',
  'application_instance',
  // integer fields of the mobile models (explorer MobileSummaryDataResponse, CrashSummaryResponse)
  'active_users',
  'launch_count',
  'crash_count',
  'unresolved_crash_count',
])

function writeElement(out: string[], name: string, value: unknown, level: number): void {
  if (value === undefined) return
  const indent = '  '.repeat(level)
  if (value === null) {
    out.push(`${indent}<${name} nil="true"/>`)
    return
  }
  if (typeof value !== 'object') {
    out.push(`${indent}<${name}>${scalarText(name, value)}</${name}>`)
    return
  }
  const children: [string, unknown][] = Array.isArray(value)
    ? value.map((item) => [singularOf(name), item])
    : Object.entries(value).filter(([, v]) => v !== undefined)
  if (children.length === 0) {
    out.push(`${indent}<${name}/>`)
    return
  }
  out.push(`${indent}<${name}>`)
  for (const [childName, child] of children) writeElement(out, childName, child, level + 1)
  out.push(`${indent}</${name}>`)
}

function scalarText(name: string, value: unknown): string {
  if (typeof value !== 'number') return xmlText(String(value))
  if (!Number.isFinite(value)) return '0'
  const wholeAndSmall = Number.isInteger(value) && value > -100 && value < 100
  return wholeAndSmall && !INTEGER_FIELDS.has(name) ? `${value}.0` : String(value)
}

/** Rails' `singularize` for the plural forms v2 uses: `…ies` → `…y`, `…ses`/`…xes` → drop `es`,
 * else drop one `s` (not from `…ss`). */
function singularOf(plural: string): string {
  if (plural.endsWith('ies')) return `${plural.slice(0, -3)}y`
  if (plural.endsWith('ses') || plural.endsWith('xes')) return plural.slice(0, -2)
  if (plural.endsWith('s') && !plural.endsWith('ss')) return plural.slice(0, -1)
  return plural
}

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\r': '&#13;', // a raw CR would read back as LF (XML 1.0 §2.11 end-of-line handling)
}

/** Text content: markup characters as entities, and what XML 1.0 §2.2 `Char` excludes (C0 controls
 * but tab, LF and CR; U+FFFE, U+FFFF; unpaired surrogates) left out. */
function xmlText(text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += text.slice(i, i + 2)
        i++
      }
      continue
    }
    if (code >= 0xdc00 && code <= 0xdfff) continue
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code >= 0xfffe) continue
    const char = text[i]!
    out += ENTITIES[char] ?? char
  }
  return out
}
