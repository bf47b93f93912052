/**
 * @module explorer/routes
 * The API explorer page at `/` and `/explorer`, its script, stylesheet and catalog
 * (src/explorer/files.ts), static files read from memory on Node and through the `ASSETS` binding
 * on Workers (src/http/static-files.ts). Either way they leave here, with a policy that forbids inline
 * code, other origins, framing and forms posting elsewhere.
 */
import type { Context } from 'hono'
import { Hono } from '../http/hono'
import type { Env } from '../http/env'
import type { ExplorerFileName } from './files'
import { demoSlot, regionSlot } from './page'
import type { ReadStatic } from '../http/static-files'

const securityHeaders = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
}

const types: Record<ExplorerFileName, string> = {
  'explorer/page.html': 'text/html; charset=utf-8',
  'explorer/app.js': 'text/javascript; charset=utf-8',
  'explorer/app.css': 'text/css; charset=utf-8',
  'explorer/catalog.json': 'application/json; charset=utf-8',
}

const escape = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

/** The demo's explorer (scripts/demo-server.ts): the simulator's demo key, filled in. */
export interface ExplorerDemo {
  key: string
}

export function explorerRoutes(read: ReadStatic, demo?: ExplorerDemo): Hono<Env> {
  const explorer = new Hono<Env>()

  const serve =
    (name: ExplorerFileName, fill = (text: string, _c: Context<Env>) => text) =>
    async (c: Context<Env>) => {
      const text = await read(c, name)
      if (text === undefined) return c.notFound()
      return new Response(fill(text, c), {
        headers: { 'Content-Type': types[name], ...securityHeaders },
      })
    }

  // In the demo, NerdGraph is the simulator, whatever REGION says; the key is its demo key.
  const region = (c: Context<Env>) => (demo ? 'simulator' : c.get('config').region.toUpperCase())
  const demoMeta = demo ? `<meta name="v2bridge-demo-key" content="${escape(demo.key)}">` : ''
  const page = serve('explorer/page.html', (html, c) =>
    html.replace(regionSlot, escape(region(c))).replace(demoSlot, demoMeta)
  )
  explorer.get('/', page)
  explorer.get('/explorer', page)
  explorer.get('/explorer/', page)
  explorer.get('/explorer/app.js', serve('explorer/app.js'))
  explorer.get('/explorer/app.css', serve('explorer/app.css'))
  explorer.get('/explorer/catalog', serve('explorer/catalog.json'))
  return explorer
}
