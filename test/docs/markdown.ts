/**
 * The README and docs/ read as the tests of test/docs/ need them: fenced blocks with their info
 * string and line, relative links, and heading ids as GitHub makes them (lower case, punctuation
 * dropped, spaces to hyphens, a -1, -2… suffix on repeats; github/cmark-gfm's anchor filter, as
 * documented in GitHub Docs "Basic writing and formatting syntax", section "Section links").
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { repoRoot } from '../helpers/child-server'

/** README.md and every page of docs/, paths relative to the repository. */
export function docFiles(): string[] {
  const docs = readdirSync(join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`)
  return ['README.md', ...docs]
}

export const readDoc = (file: string) => readFileSync(join(repoRoot, file), 'utf8')

export interface Block {
  file: string
  /** 1-based line of the opening fence. */
  line: number
  info: string
  body: string
}

/** Fenced code blocks (``` only, as these docs use), indented fences included (list items). */
export function blocks(file: string, text = readDoc(file)): Block[] {
  const out: Block[] = []
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*$/.exec(lines[i]!)
    if (!open) continue
    const indent = open[1]!.length
    const body: string[] = []
    let j = i + 1
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]!); j++)
      body.push(lines[j]!.slice(indent))
    out.push({ file, line: i + 1, info: open[2]!, body: body.join('\n') })
    i = j
  }
  return out
}

/** The text outside fenced blocks and inline code, where links and headings live. */
export function prose(text: string): string {
  return text
    .replace(/^(\s*)```[\s\S]*?^\s*```\s*$/gm, '')
    .replace(/``[^`]*``|`[^`\n]*`/g, (code) => (code.includes('](') ? '' : code))
}

/** GitHub's id of a heading's text. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** The ids of every heading of a markdown text. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>()
  const ids = new Set<string>()
  for (const m of prose(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1]!)
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    ids.add(n === 0 ? base : `${base}-${n}`)
  }
  return ids
}

/** Relative link targets (`[text](target)` and images), outside code. */
export function relativeLinks(text: string): string[] {
  return [...prose(text).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z\d+.-]*:/i.test(target))
}

/** One command per logical line (`\` continuations joined), with its first line, comments and
 * blank lines dropped. */
export function commands(block: Block): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = []
  const lines = block.body.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const first = i
    let text = lines[i]!
    while (text.endsWith('\\') && i + 1 < lines.length)
      text = `${text.slice(0, -1)} ${lines[++i]!.trim()}`
    if (text.trim() === '' || text.trim().startsWith('#')) continue
    out.push({ line: block.line + 1 + first, text: text.trim() })
  }
  return out
}

/** The status a command's trailing comment names (`# 201`, `# 404: …`), if any. */
export function expectedStatus(command: string): number | undefined {
  const comment = /\s#\s+(.*)$/.exec(command)?.[1]
  const status = comment && /^(?:[\w ]*:\s*)?([1-5]\d\d)\b/.exec(comment)
  return status ? Number(status[1]) : undefined
}

export const where = (file: string, line: number) => `${relative('.', file)}:${line}`
