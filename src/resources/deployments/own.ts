/**
 * @module resources/deployments/own
 * Read-your-writes for deployments (src/core/own-writes.ts): a deployment the key recorded shows in
 * its own lists, lookups and "after the latest" checks while NerdGraph's search may not show it yet.
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import { defineOwnWrites, ownWrites, recordOwnWrite } from '../../core/own-writes'
import type { ResolvedApplication } from '../../entities/resolve'
import type { NgDeployment } from './documents'

/** per account and application: the deployments the key recorded. */
export const ownDeploymentsCache = defineOwnWrites<NgDeployment>('ownDeployments')

const scopeOf = (app: ResolvedApplication) => `${app.accountId}:${app.appId}`

/** After NerdGraph recorded a deployment: what it answered. */
export function recordOwnDeployment(c: Context<Env>, app: ResolvedApplication, d: NgDeployment) {
  recordOwnWrite(c.get('caches').of(ownDeploymentsCache), c.get('keyHash'), scopeOf(app), d)
}

/** A search's results (newest first) with the key's own deployments of its time window that they
 * lack, in order. */
export function withOwnDeployments(
  c: Context<Env>,
  app: ResolvedApplication,
  found: NgDeployment[],
  window: { startTime: number; endTime: number }
): NgDeployment[] {
  const cache = c.get('caches').of(ownDeploymentsCache)
  const seen = new Set(found.map((d) => d.deploymentId))
  const missing = ownWrites(cache, c.get('keyHash'), scopeOf(app)).filter(
    (d) =>
      !seen.has(d.deploymentId) && d.timestamp >= window.startTime && d.timestamp <= window.endTime
  )
  if (missing.length === 0) return found
  // newest first; a deployment of the same time: the newer record first (as NerdGraph orders them)
  return [...found, ...missing.reverse()].sort((a, b) => b.timestamp - a.timestamp)
}
