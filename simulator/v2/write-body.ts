/**
 * @module simulator/v2/write-body — the parameters of a v2 write as one tree, as Rails `params` held
 * them: the query string, then the body, JSON (`{"application": {"settings": {…}}}`), a form
 * (`application[settings][app_apdex_threshold]=0.5`, `label[links][applications][]=1`) or XML
 * (Rails `Hash.from_xml`: dashes become underscores, `nil="true"` is null, `type="array"` and
 * repeated elements are lists). The v2 explorer's write notes: "The input is expected to be in JSON
 * or XML format in the body parameter".
 */
import type { C } from './respond'

export type Tree = { [key: string]: unknown }

/** Names that would reach an object's prototype: never a parameter. */
const UNSAFE: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])
const merge = (tree: Tree, from: Tree) => {
  for (const [k, v] of Object.entries(from)) if (!UNSAFE.has(k)) tree[k] = v
}

/** The query and body of `c` merged, the body winning. */
export async function writeParams(c: C): Promise<Tree> {
  const tree: Tree = {}
  for (const [k, v] of new URL(c.req.url).searchParams) assign(tree, k, v)
  const text = await c.req.raw
    .clone()
    .text()
    .catch(() => '')
  if (!text.trim()) return tree
  const type = c.req.header('content-type') ?? ''
  if (type.includes('json') || /^\s*[{[]/.test(text)) {
    try {
      const body: unknown = JSON.parse(text)
      if (isTree(body)) merge(tree, body)
    } catch {
      // an unreadable body adds nothing: the route answers its missing parameter
    }
  } else if (type.includes('xml') || text.trimStart().startsWith('<')) merge(tree, xmlTree(text))
  else for (const [k, v] of new URLSearchParams(text)) assign(tree, k, v)
  return tree
}

/** `a[b][c]=v` → `{a: {b: {c: v}}}`; a last `[]` or `[0]` appends to a list. */
function assign(tree: Tree, key: string, value: string): void {
  const m = /^([^[\]]+)((?:\[[^\]]*\])*)$/.exec(key)
  if (!m) return
  const path = [m[1]!, ...[...m[2]!.matchAll(/\[([^\]]*)\]/g)].map((x) => x[1]!)]
  if (path.some((k) => UNSAFE.has(k))) return
  let node = tree
  for (const [i, k] of path.entries()) {
    const next = path[i + 1]
    if (next !== undefined && (next === '' || /^\d+$/.test(next)) && i + 2 === path.length) {
      const list = Array.isArray(node[k]) ? (node[k] as unknown[]) : (node[k] = [])
      list.push(value)
      return
    }
    if (next === undefined) node[k] = value
    else node = isTree(node[k]) ? node[k] : (node[k] = {})
  }
}

export const isTree = (v: unknown): v is Tree =>
  v !== null && typeof v === 'object' && !Array.isArray(v)

/** The node at `path`, or undefined. */
export function at(tree: unknown, ...path: string[]): unknown {
  let node = tree
  for (const k of path) node = isTree(node) ? node[k] : undefined
  return node
}

/** A scalar at `path` as trimmed text; undefined when absent, null or not a scalar. */
export function text(tree: unknown, ...path: string[]): string | undefined {
  const v = at(tree, ...path)
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
    ? String(v).trim()
    : undefined
}

/** A list at `path`: an array, or one value split on commas (`1,2`, as clients send IDs). */
export function list(tree: unknown, ...path: string[]): string[] {
  const v = at(tree, ...path)
  const items = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]
  return items
    .flatMap((x) => (isTree(x) ? [] : String(x).split(',')))
    .map((x) => x.trim())
    .filter(Boolean)
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
/** XML character and entity references; one out of Unicode's range is left as written. */
const decode = (s: string) =>
  s.replace(/&(#x[\da-f]+|#\d+|\w+);/gi, (whole, e: string) => {
    if (e[0] !== '#') return ENTITIES[e] ?? whole
    const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1))
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })

/** Rails `Hash.from_xml` for the element trees v2 write bodies are. */
function xmlTree(xml: string): Tree {
  type Open = { name: string; attrs: string; children: [string, unknown][]; text: string }
  const root: Open = { name: '', attrs: '', children: [], text: '' }
  const stack = [root]
  const body = xml.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->/g, '')
  const token = /<!\[CDATA\[([\s\S]*?)\]\]>|<(\/?)([\w.:-]+)([^>]*?)(\/?)>|([^<]+)/g
  for (const [, cdata, close, name, attrs, empty, chars] of body.matchAll(token)) {
    const top = stack[stack.length - 1]!
    if (cdata !== undefined || chars !== undefined) top.text += cdata ?? decode(chars!)
    else if (close) {
      const done = stack.pop()!
      if (stack.length === 0) break
      stack[stack.length - 1]!.children.push([done.name, valueOf(done)])
    } else {
      const node: Open = { name: name!.replace(/-/g, '_'), attrs: attrs!, children: [], text: '' }
      if (empty) top.children.push([node.name, valueOf(node)])
      else stack.push(node)
    }
  }
  return Object.fromEntries(root.children)
  function valueOf(n: Open): unknown {
    const array = /type="array"/.test(n.attrs)
    if (/nil="true"/.test(n.attrs)) return array ? [] : null
    if (array) return n.children.map(([, v]) => v)
    if (n.children.length === 0) return n.text.trim()
    const out: Tree = {}
    for (const [k, v] of n.children)
      if (!UNSAFE.has(k))
        out[k] = Object.hasOwn(out, k) ? [...(Array.isArray(out[k]) ? out[k] : [out[k]]), v] : v
    return out
  }
}
