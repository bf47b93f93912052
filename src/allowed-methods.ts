/**
 * @module allowed-methods
 * Which methods a path serves, read from the app's own routes once: an unknown path is 404, a known
 * path with another method is 405 with `Allow` (RFC 9110 §15.5.6). Routes registered for every method
 * (`use`, `all`) are middleware and do not count.
 */
import type { Hono } from 'hono'
import { TrieRouter } from 'hono/router/trie-router'

export type MethodsOf = (path: string) => string[]

/** `methodsOf(path)`: the methods `app` serves at `path` (HEAD wherever GET), [] when none. */
export function allowedMethods<E extends object>(app: Hono<E>): MethodsOf {
  let router: TrieRouter<string> | undefined
  const build = () => {
    const r = new TrieRouter<string>()
    for (const route of app.routes)
      if (route.method !== 'ALL') r.add('ALL', route.path, route.method)
    return r
  }
  return (path) => {
    router ??= build()
    const methods = new Set(router.match('GET', path)[0].map(([method]) => method))
    if (methods.has('GET')) methods.add('HEAD')
    return [...methods].sort()
  }
}
