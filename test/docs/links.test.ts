/**
 * Every relative link of the README and docs/ resolves: the file exists and, for `#anchor`, the
 * heading exists in it (GitHub's ids, test/docs/markdown.ts). Every page of docs/ is reached from
 * the README. Issue 25, "Done when": every README and docs link is checked.
 */
import { existsSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../helpers/child-server'
import { anchors, docFiles, readDoc, relativeLinks, slug } from './markdown'

describe('markdown helpers', () => {
  it("makes GitHub's heading ids", () => {
    expect(slug('Where v2bridge differs from v2')).toBe('where-v2bridge-differs-from-v2')
    expect(slug('Legacy keys: `KEY_MAP`')).toBe('legacy-keys-key_map')
    expect(slug('1. Verify')).toBe('1-verify')
    expect([...anchors('# A\n## B\n## B\n```\n# not a heading\n```\n')]).toEqual(['a', 'b', 'b-1'])
  })
})

/** `target` of a link in `file`, as a repository path and an anchor. */
function resolveLink(file: string, target: string) {
  const [path, anchor] = target.split('#') as [string, string | undefined]
  const resolved = path === '' ? file : normalize(join(dirname(file), decodeURI(path)))
  return { path: resolved, anchor }
}

describe.each(docFiles())('links of %s', (file) => {
  const links = relativeLinks(readDoc(file))

  it('resolve to files and headings that exist', () => {
    const broken: string[] = []
    for (const target of links) {
      const { path, anchor } = resolveLink(file, target)
      if (path.startsWith('..') || !existsSync(join(repoRoot, path))) {
        broken.push(`${target}: no file ${path}`)
        continue
      }
      if (anchor !== undefined && !anchors(readDoc(path)).has(anchor))
        broken.push(`${target}: no heading #${anchor} in ${path}`)
    }
    expect(broken).toEqual([])
  })
})

/** The developer pages the npm package leaves out (`!docs/…` in package.json `files`): a shipped page
 * cannot link to them, so the README names them by path instead. */
const unshipped = (JSON.parse(readDoc('package.json')) as { files: string[] }).files.flatMap((f) =>
  f.startsWith('!docs/') ? [f.slice(1)] : []
)

describe('the README', () => {
  it('names the developer pages the package leaves out, by path', () => {
    expect(unshipped.length).toBeGreaterThan(0)
    for (const page of unshipped) expect(readDoc('README.md')).toContain(`\`${page}\``)
  })

  it('leads to every page of docs/ the package ships', () => {
    const reached = new Set<string>(['README.md'])
    const queue = ['README.md']
    while (queue.length) {
      const file = queue.shift()!
      for (const target of relativeLinks(readDoc(file))) {
        const { path } = resolveLink(file, target)
        if (path.endsWith('.md') && existsSync(join(repoRoot, path)) && !reached.has(path)) {
          reached.add(path)
          queue.push(path)
        }
      }
    }
    expect(docFiles().filter((f) => !reached.has(f) && !unshipped.includes(f))).toEqual([])
  })
})
