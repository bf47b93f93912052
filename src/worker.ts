/**
 * @module worker
 * Cloudflare Workers entry: settings come from `[vars]` bindings (wrangler.toml); request lines go
 * to the Worker's console as JSON (`wrangler tail`).
 */
import { createApp } from './app'
import { consoleLog } from './core/request-log'
import { cacheAnswerStore } from './upstream/cache-api-store'

/** Shared NRQL answers reach every isolate of a data center through the Cache API. */
export default createApp({ log: consoleLog, answerStore: cacheAnswerStore })

/** The migration report's Durable Object (binding `REPORTS` in wrangler.toml; optional). */
export { ReportObject } from './report/durable'
