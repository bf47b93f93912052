/**
 * @module http/operation-row
 * Which v2 operation a request is (src/http/operations.ts over mappings/operations.ts) and the format
 * it answers in: a path no row knows is 404, a method its rows do not serve is 405 with `Allow`.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { V2Error, titles } from '../core/errors'
import type { Env } from './env'
import type { Matched, OperationRouter } from './operations'
import { formatOf, pathWithoutFormat } from './render'
import { urlOf } from './request-url'

function settle(c: Context<Env>, { row, allowed }: Matched) {
  if (!row) {
    throw new V2Error(405, titles.methodNotAllowed, { headers: { Allow: allowed.join(', ') } })
  }
  c.set('operation', row)
}

/** `/v2/*`: the format from the suffix (or `Accept`; no format is 404), the row from the path. */
export function operationRow(operationOf: OperationRouter): MiddlewareHandler<Env> {
  return async (c, next) => {
    const url = urlOf(c.req.raw)
    const format = formatOf(url.pathname, c.req.header('accept'))
    if (!format) throw new V2Error(404, titles.notFound)
    c.set('format', format)
    const matched = operationOf(c.req.method, pathWithoutFormat(url.pathname))
    if (matched.allowed.length === 0) throw new V2Error(404, titles.notFound)
    settle(c, matched)
    return next()
  }
}

/** The legacy deployments API v0 (`/deployments`, outside /v2): the format from the suffix alone
 * (`Accept` is not read), XML for a suffix v2 has not. */
export function v0OperationRow(operationOf: OperationRouter): MiddlewareHandler<Env> {
  return async (c, next) => {
    c.set('format', formatOf(urlOf(c.req.raw).pathname, undefined) ?? 'xml')
    settle(c, operationOf(c.req.method, '/deployments'))
    return next()
  }
}
