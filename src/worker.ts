/**
 * @module worker
 * Cloudflare Workers entry: settings come from `[vars]` bindings (wrangler.toml); request lines go
 * to the Worker's console as JSON (`wrangler tail`).
 */
import { createApp } from './app'
import { consoleLog } from './core/request-log'

export default createApp({ log: consoleLog })

/** The migration report's Durable Object (binding `REPORTS` in wrangler.toml; optional). */
export { ReportObject } from './report/durable'
