/**
 * @module simulator/data/visibility
 * When a write shows in NerdGraph's reads. Live, a tag shows in reads only after a delay: "Tags can
 * take some time to be visible in the system" and "This particular underlying API has an
 * asynchronous behavior" (newrelic/terraform-provider-newrelic issue #791); a tag still not found
 * after 1 minute of polling (issue #1556, whose fix lengthened the provider's wait, PR #1936). The
 * simulator holds back every write NerdGraph reads from its index the same way: tags, renames and
 * settings, and deployments (the delay of the last two is not on record [unknown]: the tags' figure
 * is used). The mutation's own answer, and the v2 stand-in (v2 answered from its own database), see
 * the write at once.
 */

/** A minute: the reports above saw tags missing after 60 s of polling. */
export const WRITE_VISIBILITY_MS = 60_000

export interface Visibility {
  /** ms after a write before NerdGraph's reads show it; 0 shows it at once. */
  delayMs: number
  /** Wall time in ms (real minutes, whatever the dataset's clock). */
  readonly clock: () => number
}

export function createVisibility(delayMs = WRITE_VISIBILITY_MS, clock = Date.now): Visibility {
  return { delayMs, clock }
}

/** The newest write time reads already show. */
export const shownBefore = (v: Visibility) => v.clock() - v.delayMs

/** The writes of each key, with when they were made: reads see the newest one made at least the delay
 * ago; older ones are dropped once a newer one shows. */
export interface WriteHistory<T> {
  write(key: string, value: T): void
  /** The newest write, shown or not (what the next write starts from). */
  latest(key: string): T | undefined
  /** The newest write reads show, or undefined when none shows yet (reads show the seed). */
  shown(key: string): { value: T } | undefined
  /** When the next held-back write shows (Infinity: none held back), for caches of reads. */
  nextChange(): number
  clear(): void
}

export function createWriteHistory<T>(visibility: Visibility): WriteHistory<T> {
  const writes = new Map<string, { value: T; at: number }[]>()
  return {
    write(key, value) {
      const list = writes.get(key) ?? []
      list.push({ value, at: visibility.clock() })
      writes.set(key, list)
    },
    latest: (key) => writes.get(key)?.at(-1)?.value,
    shown(key) {
      const list = writes.get(key)
      if (!list) return undefined
      const cutoff = shownBefore(visibility)
      let n = 0
      while (n < list.length && list[n]!.at <= cutoff) n++
      if (n > 1) list.splice(0, n - 1)
      return n > 0 ? { value: list[0]!.value } : undefined
    },
    nextChange() {
      const cutoff = shownBefore(visibility)
      let next = Infinity
      for (const list of writes.values()) {
        for (const w of list) if (w.at > cutoff) next = Math.min(next, w.at + visibility.delayMs)
      }
      return next
    },
    clear: () => writes.clear(),
  }
}
