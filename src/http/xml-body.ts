/**
 * @module http/xml-body
 * An XML request body as the object Rails makes of it (`Hash.from_xml`, which v2 and the v0
 * deployments API used for `application/xml` bodies; the v2 explorer's write operations "consume
 * application/json, application/xml"): the root element is the top key, child elements nest, a
 * repeated element becomes a list, dashes in names become underscores, `nil="true"` is null, and an
 * element marked `type="array"` is the list of its children (rails/rails
 * `activesupport/lib/active_support/core_ext/hash/conversions.rb`, `XMLConverter#process_hash` with
 * `become_array?`: the children named as its first child; none is `[]`, even with `nil="true"`).
 * Attributes are otherwise ignored; a DOCTYPE is refused (no entity expansion).
 * @example xmlBody('<deployment><app-name>Shop</app-name></deployment>') // { deployment: { app_name: 'Shop' } }
 */
import { maxJsonDepth } from './body'
import { V2Error } from '../core/errors'

type Node = {
  name: string
  nil: boolean
  array: boolean
  text: string
  children: [string, unknown][]
}

const token =
  /<!\[CDATA\[([\s\S]*?)\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<\/([^\s>]+)\s*>|<([A-Za-z_][\w.:-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)|(<)/gy

const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|[a-z]{2,4});/g, (whole, ref: string) => {
    if (ref[0] !== '#') return named[ref] ?? whole
    const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1))
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })
}

const invalid = () => new V2Error(400, 'Invalid XML in request body')

/** Elements a body may hold: a v2 write names a few fields, a label's links a few hundred IDs. Past
 * it the body is refused, so no body costs more than one linear pass over a bounded prefix. */
export const maxXmlElements = 2_000
const tooManyElements = `More than ${maxXmlElements} elements in the XML request body`

/** An own property even for `__proto__`, as JSON.parse makes it (plain assignment would set the
 * object's prototype instead). */
function setOwn(out: Record<string, unknown>, name: string, value: unknown) {
  Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true })
}

/** The value Rails makes of an element. A repeated name becomes a list, appended in place (each
 * list is made here, so pushing never touches a caller's value): linear in the children. */
function valueOf(node: Node): unknown {
  if (node.array) {
    const first = node.children[0]?.[0]
    return node.children.filter(([name]) => name === first).map(([, value]) => value)
  }
  if (node.nil) return null
  if (node.children.length === 0) return node.text
  const out: Record<string, unknown> = {}
  const lists = new Set<unknown[]>()
  for (const [name, value] of node.children) {
    if (!Object.hasOwn(out, name)) {
      setOwn(out, name, value)
      continue
    }
    const had = out[name]
    if (Array.isArray(had) && lists.has(had)) had.push(value)
    else {
      const list = [had, value]
      lists.add(list)
      setOwn(out, name, list)
    }
  }
  return out
}

export function xmlBody(text: string): Record<string, unknown> {
  const root: Node = { name: '', nil: false, array: false, text: '', children: [] }
  const stack = [root]
  token.lastIndex = 0
  let end = 0
  let elements = 0
  for (let m = token.exec(text); m; m = token.exec(text)) {
    end = token.lastIndex
    const top = stack.at(-1)!
    if (m[7] !== undefined) throw invalid()
    if (m[1] !== undefined) top.text += m[1]
    else if (m[6] !== undefined) {
      if (stack.length === 1 && m[6].trim() !== '') throw invalid()
      top.text += decode(m[6])
    } else if (m[3] !== undefined) {
      if (++elements > maxXmlElements) throw new V2Error(400, tooManyElements)
      const node: Node = {
        name: m[3].replace(/-/g, '_'),
        nil: /\snil\s*=\s*["']true["']/.test(m[4] ?? ''),
        array: /\stype\s*=\s*["']array["']/.test(m[4] ?? ''),
        text: '',
        children: [],
      }
      if (m[5] === '/') top.children.push([node.name, valueOf(node)])
      else if (stack.push(node) > maxJsonDepth) throw invalid() // flattening recurses per level
    } else if (m[2] !== undefined) {
      const node = stack.pop()!
      if (stack.length === 0 || node.name !== m[2].replace(/-/g, '_')) throw invalid()
      stack.at(-1)!.children.push([node.name, valueOf(node)])
    }
  }
  if (end !== text.length) throw invalid()
  if (stack.length !== 1 || root.children.length !== 1) throw invalid()
  return valueOf(root) as Record<string, unknown>
}
