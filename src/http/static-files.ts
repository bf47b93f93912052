/**
 * @module http/static-files
 * Files v2bridge reads that never change while it runs: the explorer's page, script, stylesheet and
 * catalog, and the explain field table. The Node entry holds them in memory (src/explorer/static-content.ts);
 * on Workers they are static assets (wrangler.toml `[assets]`, written by `npm run assets`) read
 * through the `ASSETS` binding, so the Worker's script does not carry them.
 */
import type { Context } from 'hono'
import type { Env } from './env'

/** File name (`explorer/app.js`) → its text. */
export type StaticFiles = Readonly<Record<string, string>>

/** Reads one static file; `undefined` when there is none. */
export type ReadStatic = (c: Context<Env>, name: string) => Promise<string | undefined>

/** From `files` when given (Node), else from the request's `ASSETS` binding (Workers). */
export function staticReader(files: StaticFiles | undefined): ReadStatic {
  if (files) return async (_c, name) => files[name]
  return async (c, name) => {
    const res = await c.env?.ASSETS?.fetch(new URL(`/${name}`, c.req.url))
    return res?.ok ? res.text() : undefined
  }
}
