/**
 * @module report
 * The migration report: which store a request records to and reads from (the app's option, else the
 * Worker's `REPORTS` Durable Object binding, else memory), and its hooks into the app.
 */
import type { Context } from 'hono'
import type { Env } from '../http/env'
import { durableStore } from './durable'
import { memoryStore, type ReportStore } from './store'

export type { ReportStore } from './store'
export { recordCalls } from './record'
export { reportRoutes, type OrgView } from './routes'

/** Picks the store per request; one memory store per app when nothing else is given. */
export function reportStores(given: ReportStore | undefined): (c: Context<Env>) => ReportStore {
  const memory = given ?? memoryStore()
  const durable = new WeakMap<object, ReportStore>()
  return (c) => {
    const namespace = c.env?.REPORTS
    if (given || !namespace) return memory
    let store = durable.get(namespace)
    if (!store) durable.set(namespace, (store = durableStore(namespace)))
    return store
  }
}
