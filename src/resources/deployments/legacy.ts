/**
 * @module resources/deployments/legacy
 * `POST /deployments.xml` (legacy deployments API v0): the application by ID or by name, then one
 * `changeTrackingCreateDeployment`, answered 201 with v0's typed XML (src/resources/deployments/v0-render.ts).
 * An application v2bridge cannot find is v0's 422 "Application NAME does not exist."
 */
import { applicationsCache } from '../../entities/resolve'
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import { V2Error, titles } from '../../core/errors'
import { decodeGuid } from '../../core/identity'
import { quote } from '../../core/nrql'
import {
  pinnedAccount,
  resolveApplication,
  findEntity,
  type ResolvedApplication,
} from '../../entities/resolve'
import { recordDeployment } from './create'
import { parseV0, v0Titles, type V0Application } from './v0'
import type { V0Record } from './v0-render'

/** An application by exact name (entity search `name = '…'`), cached per key like IDs. */
async function byName(c: Context<Env>, name: string): Promise<ResolvedApplication | undefined> {
  const accountId = pinnedAccount(c)
  const cacheKey = `name:${accountId ?? ''}:${name}`
  const cache = c.get('caches').of(applicationsCache)
  const cached = cache.get(c.get('keyHash'), cacheKey)
  if (cached) return cached
  const inAccount = accountId === undefined ? '' : ` AND accountId = ${quote(accountId)}`
  const hit = await findEntity(
    c,
    `name = ${quote(name)} AND domain = 'APM' AND type = 'APPLICATION'${inAccount}`
  )
  const appId = Number(hit ? decodeGuid(hit.guid)?.domainId : NaN)
  if (!hit || !Number.isSafeInteger(appId)) return undefined
  const app = { appId, accountId: hit.accountId, guid: hit.guid }
  cache.set(c.get('keyHash'), cacheKey, app)
  return app
}

async function find(c: Context<Env>, app: V0Application): Promise<ResolvedApplication> {
  const found = 'id' in app ? await resolveApplication(c, app.id) : await byName(c, app.name)
  if (!found) throw new V2Error(404, titles.noApplication)
  return found
}

export async function recordLegacyDeployment(c: Context<Env>): Promise<V0Record> {
  const request = parseV0(c.get('params'), Date.now())
  try {
    const app = await find(c, request.app)
    const { created, id } = await recordDeployment(c, app, request.deployment)
    return {
      accountId: app.accountId,
      appId: app.appId,
      id,
      revision: created.version,
      changelog: created.changelog ?? null,
      description: created.description ?? null,
      user: created.user ?? null,
      timestamp: created.timestamp,
    }
  } catch (err) {
    if (err instanceof V2Error && err.status === 404) {
      throw new V2Error(422, v0Titles.unknown(request.app))
    }
    throw err
  }
}
