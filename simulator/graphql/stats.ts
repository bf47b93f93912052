/** @module simulator/graphql/stats — request and NRQL counters, per masked key. */

/** Number of most recent NRQL texts kept in `queries`. */
export const RECENT_QUERIES = 200

export interface KeyStats {
  graphqlRequests: number
  nrqlQueries: number
}

export interface SimStats extends KeyStats {
  /** Keyed by masked key (`NRAK-DEMO…<hash>`). */
  byKey: Record<string, KeyStats>
  /** The last RECENT_QUERIES NRQL texts received, oldest first. */
  queries: string[]
}

export interface StatsRecorder {
  request(keyLabel: string): void
  nrql(keyLabel: string, text: string): void
  snapshot(): SimStats
  reset(): void
}

export function createStats(): StatsRecorder {
  let totals: KeyStats = { graphqlRequests: 0, nrqlQueries: 0 }
  let byKey = new Map<string, KeyStats>()
  let queries: string[] = []
  const forKey = (label: string): KeyStats => {
    let entry = byKey.get(label)
    if (!entry) byKey.set(label, (entry = { graphqlRequests: 0, nrqlQueries: 0 }))
    return entry
  }
  return {
    request(label) {
      totals.graphqlRequests++
      forKey(label).graphqlRequests++
    },
    nrql(label, text) {
      totals.nrqlQueries++
      forKey(label).nrqlQueries++
      queries.push(text)
      if (queries.length > RECENT_QUERIES) queries = queries.slice(-RECENT_QUERIES)
    },
    snapshot: () => ({
      ...totals,
      byKey: Object.fromEntries([...byKey].map(([label, s]) => [label, { ...s }])),
      queries: [...queries],
    }),
    reset() {
      totals = { graphqlRequests: 0, nrqlQueries: 0 }
      byKey = new Map()
      queries = []
    },
  }
}
