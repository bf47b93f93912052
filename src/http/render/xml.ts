/**
 * @module http/render/xml
 * V2 body → XML text as real v2 XML shows it (TONS sample; SENSU, PSM readers; the rest [INFERRED]
 * from Rails `to_xml`): `<?xml …?>` declaration, root `<mainkey>_response`,
 * array items as the singular of their container, no type attributes, `nil="true"` for null,
 * self-closing empty arrays, two-space indentation, escaped text.
 */
import { singular, integerFields } from '../../../mappings/xml'

export type V2Body = Record<string, unknown>

const declaration = '<?xml version="1.0" encoding="UTF-8"?>'

/** Renders a v2 body; the root is named after its first key (`metric_data_response` in the TONS
 * sample, `applications_response` read by the Sensu plugin). */
export function renderXml(body: V2Body): string {
  const keys = Object.keys(body)
  const root = `${keys[0] ?? 'empty'}_response`
  const lines = [declaration, `<${root}>`]
  for (const key of keys) element(lines, key, body[key], 1)
  lines.push(`</${root}>`)
  return lines.join('\n') + '\n'
}

function element(lines: string[], name: string, value: unknown, depth: number): void {
  const pad = '  '.repeat(depth)
  if (value === undefined) return
  if (value === null) {
    lines.push(`${pad}<${name} nil="true"/>`)
  } else if (Array.isArray(value)) {
    if (value.length === 0) return void lines.push(`${pad}<${name}/>`)
    lines.push(`${pad}<${name}>`)
    const item = singular(name)
    for (const v of value) element(lines, item, v, depth + 1)
    lines.push(`${pad}</${name}>`)
  } else if (typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined)
    if (entries.length === 0) return void lines.push(`${pad}<${name}/>`)
    lines.push(`${pad}<${name}>`)
    for (const [k, v] of entries) element(lines, k, v, depth + 1)
    lines.push(`${pad}</${name}>`)
  } else {
    lines.push(`${pad}<${name}>${text(name, value)}</${name}>`)
  }
}

/** Ruby `to_s` style (TONS sample: `<min_response_time>21.0`) — non-count values under 100 keep a
 * `.0`. */
function text(name: string, value: unknown): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '0'
    if (Number.isInteger(value) && Math.abs(value) < 100 && !integerFields.has(name)) {
      return `${value}.0`
    }
    return String(value)
  }
  return escapeXml(String(value))
}

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
}

/** Escapes markup characters (Rails escapes all five [INFERRED]) and drops characters
 * XML 1.0 cannot carry (C0 controls other than tab/newline/CR, lone surrogates, U+FFFE/FFFF). */
export function escapeXml(s: string): string {
  // CR as a reference: a raw one is read back as LF by every XML parser (XML 1.0 §2.11).
  return s
    .replace(/[&<>"']/g, (c) => escapes[c]!)
    .replace(/\r/g, '&#13;')
    .replace(
      /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
      ''
    )
}
