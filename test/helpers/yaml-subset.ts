/**
 * The YAML the docs' Kubernetes manifest is written in, read for tests (no YAML package is a
 * dependency): `---` documents, block mappings and sequences by indentation, flow `{ }` and `[ ]`,
 * plain and quoted scalars, `#` comments. Anything else (anchors, tags, block scalars, multi-line
 * plain scalars) throws, so a manifest the test cannot read fails instead of passing unread.
 */
export type Yaml = string | number | boolean | null | Yaml[] | { [key: string]: Yaml }

interface Line {
  indent: number
  text: string
  at: number
}

/** Every document of `text`, in order. */
export function parseYamlDocuments(text: string): Yaml[] {
  const docs: Line[][] = [[]]
  text.split('\n').forEach((raw, i) => {
    const text = stripComment(raw).trimEnd()
    if (text === '---') docs.push([])
    else if (text.trim())
      docs.at(-1)!.push({ indent: raw.search(/\S/), text: text.trim(), at: i + 1 })
  })
  return docs
    .filter((d) => d.length)
    .map((lines) => {
      const state = { lines, i: 0 }
      const value = block(state, lines[0]!.indent)
      if (state.i < lines.length) fail(lines[state.i]!, 'unexpected indentation')
      return value
    })
}

function fail(line: Line, why: string): never {
  throw new Error(`yaml line ${line.at}: ${why}: ${line.text}`)
}

function stripComment(line: string): string {
  let quote = ''
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!
    if (quote) quote = ch === quote ? '' : quote
    else if (ch === "'" || ch === '"') quote = ch
    else if (ch === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i)
  }
  return line
}

type State = { lines: Line[]; i: number }

/** The block at `indent`: a sequence when its first line starts with `- `, else a mapping. */
function block(state: State, indent: number): Yaml {
  const first = state.lines[state.i]!
  if (/^-( |$)/.test(first.text)) return sequence(state, indent)
  return mapping(state, indent)
}

function sequence(state: State, indent: number): Yaml[] {
  const items: Yaml[] = []
  for (
    let line = state.lines[state.i];
    line && line.indent === indent;
    line = state.lines[state.i]
  ) {
    if (!/^-( |$)/.test(line.text)) fail(line, 'expected a sequence item')
    const rest = line.text.slice(1).trim()
    if (!rest) {
      state.i++
      items.push(nested(state, indent))
    } else if (isKeyValue(rest)) {
      // `- key: value`: a mapping whose entries sit where `key` does.
      const column = indent + line.text.indexOf(rest)
      state.lines[state.i] = { ...line, indent: column, text: rest }
      items.push(mapping(state, column))
    } else {
      state.i++
      items.push(scalarOrFlow(rest, line))
    }
  }
  return items
}

function mapping(state: State, indent: number): { [key: string]: Yaml } {
  const out: { [key: string]: Yaml } = {}
  for (
    let line = state.lines[state.i];
    line && line.indent === indent;
    line = state.lines[state.i]
  ) {
    const m = /^([^\s'"{[\]},:][^:]*?|'[^']*'|"[^"]*"):(?: +(.*))?$/.exec(line.text)
    if (!m) fail(line, 'expected key: value')
    const key = unquote(m[1]!)
    if (key in out) fail(line, `duplicate key ${key}`)
    state.i++
    out[key] = m[2] === undefined ? nested(state, indent, true) : scalarOrFlow(m[2], line)
  }
  return out
}

/** The value below `key:` or `-`: deeper lines, or (after a key) a sequence at the same indent. */
function nested(state: State, indent: number, afterKey = false): Yaml {
  const next = state.lines[state.i]
  if (next && next.indent > indent) return block(state, next.indent)
  if (afterKey && next && next.indent === indent && /^-( |$)/.test(next.text))
    return sequence(state, indent)
  return null
}

const isKeyValue = (text: string) => /^([^\s'"{[\]},:][^:]*?|'[^']*'|"[^"]*"):( |$)/.test(text)

function unquote(s: string): string {
  if (s.startsWith("'")) return s.slice(1, -1).replace(/''/g, "'")
  if (s.startsWith('"')) return JSON.parse(s) as string
  return s
}

function scalarOrFlow(text: string, line: Line): Yaml {
  if (/^[&*!|>]/.test(text)) fail(line, 'anchors, tags and block scalars are not read here')
  const reader = { s: text, i: 0, line }
  const value = flow(reader)
  skipSpace(reader)
  if (reader.i !== text.length) fail(line, 'trailing text')
  return value
}

type Reader = { s: string; i: number; line: Line }

function skipSpace(r: Reader) {
  while (r.s[r.i] === ' ') r.i++
}

function flow(r: Reader, inFlow = false): Yaml {
  skipSpace(r)
  const ch = r.s[r.i]
  if (ch === '{' || ch === '[') {
    const close = ch === '{' ? '}' : ']'
    const map: { [key: string]: Yaml } = {}
    const list: Yaml[] = []
    r.i++
    for (skipSpace(r); r.s[r.i] !== close; skipSpace(r)) {
      if (ch === '{') {
        const key = flow(r, true)
        skipSpace(r)
        if (r.s[r.i] !== ':') fail(r.line, 'expected : in a flow mapping')
        r.i++
        map[String(key)] = flow(r, true)
      } else list.push(flow(r, true))
      skipSpace(r)
      if (r.s[r.i] === ',') r.i++
      else if (r.s[r.i] !== close) fail(r.line, `expected , or ${close}`)
    }
    r.i++
    return ch === '{' ? map : list
  }
  if (ch === "'" || ch === '"') {
    const end = ch === "'" ? /^'(?:[^']|'')*'/ : /^"(?:[^"\\]|\\.)*"/
    const m = end.exec(r.s.slice(r.i))
    if (!m) fail(r.line, 'unterminated quote')
    r.i += m[0].length
    return unquote(m[0])
  }
  // A plain scalar ends at the line's end, or in flow at `,` `}` `]` and at `: `.
  const rest = r.s.slice(r.i)
  const m = inFlow ? /^(?:[^,{}[\]:]|:(?! |$))+/.exec(rest) : /^.+/.exec(rest)
  if (!m) fail(r.line, 'expected a value')
  r.i += m[0].length
  return plain(m[0].trim())
}

function plain(s: string): Yaml {
  if (/^-?\d+(\.\d+)?$/.test(s)) return Number(s)
  if (s === 'true' || s === 'false') return s === 'true'
  if (s === 'null' || s === '~') return null
  return s
}
