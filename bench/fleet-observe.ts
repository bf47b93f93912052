/**
 * What bench/fleet.ts counts: events per row (an account, a user), the most of them in any 60 s
 * (NerdGraph's limits count a minute: New Relic docs "Rate limits with NRQL"), and the NRQL
 * NerdGraph received, read from each request on its way into the simulator.
 */

/** Times of events per name; `peak` is the most in any 60 s. */
export class Counter {
  private readonly times = new Map<string, number[]>()

  add(name: string, at: number): void {
    let list = this.times.get(name)
    if (!list) this.times.set(name, (list = []))
    list.push(at)
  }

  count(name: string): number {
    return this.times.get(name)?.length ?? 0
  }

  /** The most events of `name` within any 60 s. */
  peak(name: string): number {
    const list = this.times.get(name) ?? []
    let most = 0
    for (let lo = 0, hi = 0; hi < list.length; hi++) {
      while (list[hi]! - list[lo]! >= 60_000) lo++
      most = Math.max(most, hi - lo + 1)
    }
    return most
  }

  /** The largest `peak` among names starting with `prefix`. */
  peakOf(prefix: string): number {
    let most = 0
    for (const name of this.times.keys())
      if (name.startsWith(prefix)) most = Math.max(most, this.peak(name))
    return most
  }
}

export interface NerdGraphKey {
  userId: number
  accountId: number
}

/** A fetch handler that records every NRQL text of each GraphQL request (by the user and account
 * of its key: `nrql <account>`, `nrql-user <user>`, `same <user> <text>`) before passing it on. */
export function observeNerdGraph(
  keys: ReadonlyMap<string, NerdGraphKey>,
  counter: Counter,
  next: (req: Request) => Promise<Response>
): (req: Request) => Promise<Response> {
  return async (req) => {
    const url = new URL(req.url)
    if (req.method !== 'POST' || url.pathname !== '/graphql') return next(req)
    const key = keys.get(req.headers.get('api-key') ?? '')
    if (key) {
      const body = (await req.clone().json()) as { variables?: Record<string, unknown> }
      const now = Date.now()
      for (const value of Object.values(body.variables ?? {})) {
        if (typeof value !== 'string' || !value.startsWith('SELECT ')) continue
        counter.add(`nrql ${key.accountId}`, now)
        counter.add(`nrql-user ${key.userId}`, now)
        counter.add(`same ${key.userId} ${value}`, now)
      }
    }
    return next(req)
  }
}
