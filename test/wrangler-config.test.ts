/**
 * wrangler.toml's environments, as wrangler reads them: the default one sets no CPU limit (a free-plan
 * account refuses a deploy that does: cloudflare/workers-sdk issue #8756), `paid` is the same Worker
 * with one (Cloudflare docs "Limits", CPU time), Workers Logs on in both.
 */
import { unstable_readConfig } from 'wrangler'
import { describe, expect, it } from 'vitest'

const read = (env?: string) => unstable_readConfig({ config: 'wrangler.toml', env }, {})

describe('wrangler.toml', () => {
  const free = read()
  const paid = read('paid')

  it('sets no CPU limit by default, so the free plan can deploy it', () => {
    expect(free.limits).toBeUndefined()
  })

  it('sets a 5 s CPU limit in the paid environment', () => {
    expect(paid.limits).toEqual({ cpu_ms: 5000 })
  })

  it('deploys the paid environment as the same Worker, with the same settings and bindings', () => {
    expect(paid.name).toBe(free.name)
    expect(paid.vars).toEqual(free.vars)
    expect(paid.durable_objects).toEqual(free.durable_objects)
    expect(paid.migrations).toEqual(free.migrations)
    expect(paid.assets).toEqual(free.assets)
    expect(paid.alias).toEqual(free.alias)
    expect([paid.main, paid.minify, paid.keep_names]).toEqual([free.main, true, false])
  })

  it('keeps the request lines in Workers Logs in both', () => {
    expect(free.observability).toEqual({ enabled: true })
    expect(paid.observability).toEqual({ enabled: true })
  })
})
