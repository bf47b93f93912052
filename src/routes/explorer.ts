/**
 * @module routes/explorer
 * The API explorer page at `/` and `/explorer`, its script, stylesheet and catalog
 * (src/explorer/files.ts). The Node entry hands the files over; on Workers they are static assets
 * read through the `ASSETS` binding (wrangler.toml `[assets]`). Either way they leave here, with a
 * policy that forbids inline code, other origins, framing and forms posting elsewhere.
 */
import type { Context } from 'hono'
import { Hono } from '../hono'
import type { Env } from '../env'
import type { ExplorerFileName, ExplorerFiles } from '../explorer/files'
import { regionSlot } from '../explorer/page'

const securityHeaders = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
}

const types: Record<ExplorerFileName, string> = {
  'page.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
  'catalog.json': 'application/json; charset=utf-8',
}

const escape = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

/** The explorer's routes; `files` from memory (Node), else from the `ASSETS` binding (Workers). */
export function explorerRoutes(files?: ExplorerFiles): Hono<Env> {
  const explorer = new Hono<Env>()

  async function read(c: Context<Env>, name: ExplorerFileName): Promise<string | undefined> {
    if (files) return files[name]
    const res = await c.env?.ASSETS?.fetch(new URL(`/explorer/${name}`, c.req.url))
    return res?.ok ? res.text() : undefined
  }

  const serve =
    (name: ExplorerFileName, fill = (text: string, _c: Context<Env>) => text) =>
    async (c: Context<Env>) => {
      const text = await read(c, name)
      if (text === undefined) return c.notFound()
      return new Response(fill(text, c), {
        headers: { 'Content-Type': types[name], ...securityHeaders },
      })
    }

  const page = serve('page.html', (html, c) =>
    html.replace(regionSlot, escape(c.get('config').region.toUpperCase()))
  )
  explorer.get('/', page)
  explorer.get('/explorer', page)
  explorer.get('/explorer/app.js', serve('app.js'))
  explorer.get('/explorer/app.css', serve('app.css'))
  explorer.get('/explorer/catalog', serve('catalog.json'))
  return explorer
}
