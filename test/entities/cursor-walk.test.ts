/**
 * The cursor walk every paged list shares (src/entities/cursor-walk.ts; issue 22, item 4): a page
 * number costs no local work of its size, and only pages never read cost a NerdGraph request.
 */
import { describe, expect, it } from 'vitest'
import { cursorOf, emptyWalk, learnStep, pastEnd } from '../../src/entities/cursor-walk'

/** A list of `pages` pages whose page n is opened by cursor `c<n>`, counting the reads. */
function list(pages: number) {
  const reads: (string | undefined)[] = []
  const read = async (n: number, cursor: string | undefined) => {
    reads.push(cursor)
    expect(cursor).toBe(n === 1 ? undefined : `c${n}`)
    return { next: n < pages ? `c${n + 1}` : null }
  }
  return { reads, read }
}

describe('cursor walk', () => {
  it('reads each page once when walked in order, and remembers the cursors', async () => {
    const walk = emptyWalk()
    const { reads, read } = list(5)
    expect(await cursorOf(walk, 1, read)).toBeUndefined()
    learnStep(walk, 1, { next: 'c2' })
    expect(await cursorOf(walk, 2, read)).toBe('c2')
    learnStep(walk, 2, { next: 'c3' })
    expect(await cursorOf(walk, 3, read)).toBe('c3')
    expect(reads).toEqual([])
    expect(await cursorOf(walk, 5, read)).toBe('c5')
    expect(reads).toEqual(['c3', 'c4'])
  })

  it('answers a page far past the end after reading only the pages that exist', async () => {
    const walk = emptyWalk()
    const { reads, read } = list(3)
    expect(await cursorOf(walk, 999_999_999, read)).toBeNull()
    expect(reads).toEqual([undefined, 'c2', 'c3'])
    expect(walk.cursors).toEqual([undefined, undefined, 'c2', 'c3', null])
    // Known now: no read at all, whatever the page number.
    expect(pastEnd(walk, 999_999_999)).toBe(true)
    expect(await cursorOf(walk, 999_999_999, read)).toBeNull()
    expect(await cursorOf(walk, 4, read)).toBeNull()
    expect(await cursorOf(walk, 3, read)).toBe('c3')
    expect(reads).toHaveLength(3)
  })

  it('stops at a last page the list states, without reading', async () => {
    const walk = emptyWalk()
    learnStep(walk, 1, { next: 'c2', lastPage: 4 })
    const { reads, read } = list(4)
    expect(await cursorOf(walk, 5, read)).toBeNull()
    expect(reads).toEqual([])
  })

  it('keeps cursors contiguous: a page read out of order teaches only the last page', () => {
    const walk = emptyWalk()
    learnStep(walk, 7, { next: 'c8', lastPage: 9 })
    expect(walk).toEqual({ cursors: [], lastPage: 9 })
  })
})
