/**
 * @module compare/tree
 * An HTTP answer as the comparison sees it (pure): status, media type, `Link` relations and the body
 * as one tree, JSON (by its type, or text that opens like JSON) parsed as it is and XML (v2's Rails `to_xml` form, src/http/render/xml.ts)
 * parsed into the same tree: the root `<x_response>` dropped, `nil="true"` as null, an element whose
 * children all bear one name (the singular of its own, or repeated) as a list, numeric text as
 * numbers. A body that is neither stays text.
 */
import { singular } from '../../mappings/xml'

export type Tree = null | boolean | number | string | Tree[] | { [key: string]: Tree }

export interface Answer {
  status: number
  /** Media type, lower case, without parameters. */
  contentType: string
  /** `rel` → the link's path and sorted query. */
  links: Record<string, string>
  body: Tree | undefined
}

/** An answer from its parts (`headers` as fetch gives them). */
export function answerOf(status: number, headers: Headers, text: string): Answer {
  const contentType = (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  return {
    status,
    contentType,
    links: linksOf(headers.get('link')),
    body: bodyOf(contentType, text),
  }
}

function bodyOf(contentType: string, text: string): Tree | undefined {
  if (!text) return undefined
  try {
    if (contentType.endsWith('xml')) return parseXml(text)
    if (contentType.endsWith('json') || /^\s*[[{]/.test(text)) return JSON.parse(text) as Tree
  } catch {
    // not what it says it is: compared as text
  }
  return text
}

/** `<url>; rel="next", …` → { next: '/applications?page=2' }: origin and the `/v2` prefix left out
 * (v2's links name its host, v2bridge's its own). */
export function linksOf(header: string | null): Record<string, string> {
  const links: Record<string, string> = {}
  for (const m of (header ?? '').matchAll(/<([^>]*)>\s*;\s*rel="?([^";,]+)"?/g)) {
    let url: URL
    try {
      url = new URL(m[1]!, 'http://x')
    } catch {
      continue
    }
    url.searchParams.sort()
    links[m[2]!] = `${url.pathname.replace(/^\/v2(?=\/)/, '')}?${url.searchParams}`
  }
  return links
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (all, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(
          e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1))
        )
      : (entities[e] ?? all)
  )
const numeric = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/

interface Element {
  name: string
  nil: boolean
  children: Element[]
  text: string
}

/** XML text → tree (throws on markup it cannot read). */
export function parseXml(xml: string): Tree {
  const root: Element = { name: '', nil: false, children: [], text: '' }
  const stack = [root]
  const tag =
    /<(\/?)([\w:.-]+)([^>]*?)(\/?)>|<\?[^>]*\?>|<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|([^<]+)/g
  for (const m of xml.matchAll(tag)) {
    const top = stack[stack.length - 1]!
    if (m[6] !== undefined) top.text += decode(m[6])
    else if (m[5] !== undefined) top.text += m[5]
    else if (m[2] === undefined) continue
    else if (m[1]) {
      if (stack.pop()?.name !== m[2] || stack.length === 0) throw new Error('unbalanced XML')
    } else {
      const element = { name: m[2], nil: /\bnil="true"/.test(m[3]!), children: [], text: '' }
      top.children.push(element)
      if (!m[4]) stack.push(element)
    }
  }
  if (stack.length !== 1 || root.children.length !== 1) throw new Error('unbalanced XML')
  const top = root.children[0]!
  return top.children.length ? treeOf(top) : {}
}

function treeOf(e: Element): Tree {
  if (e.nil) return null
  if (e.children.length === 0) {
    const text = e.text.trim() === '' ? '' : e.text
    return numeric.test(text) ? Number(text) : text
  }
  const names = new Set(e.children.map((c) => c.name))
  const only = e.children[0]!.name
  if (names.size === 1 && (e.children.length > 1 || only === singular(e.name)))
    return e.children.map(treeOf)
  const out: Record<string, Tree> = {}
  for (const c of e.children) out[c.name] = treeOf(c)
  return out
}
