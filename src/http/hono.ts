/**
 * @module http/hono
 * The Hono class every app and route module of v2bridge builds on: Hono's own (hono/dist/hono.js)
 * with its TrieRouter only. Hono's default SmartRouter tries RegExpRouter first, which cannot take
 * v2bridge's routes, and settles on TrieRouter at the first request; the unused RegExpRouter was
 * 1.7 KiB gzipped of the Worker's upload (`npm run size`). Routing is unchanged.
 */
import type { Env, Schema } from 'hono'
import { HonoBase, type HonoOptions } from 'hono/hono-base'
import { TrieRouter } from 'hono/router/trie-router'

export class Hono<
  E extends Env = Env,
  S extends Schema = {},
  BasePath extends string = '/',
> extends HonoBase<E, S, BasePath> {
  constructor(options: HonoOptions<E> = {}) {
    super(options)
    this.router = options.router ?? new TrieRouter()
  }
}
