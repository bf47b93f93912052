/**
 * @module compare/calls
 * Compare mode in the request's way (issue 24). `v2` (shadow): a served read goes to the real v2
 * with the caller's key and the caller gets v2's answer as forwarding returns it; after the answer
 * v2bridge computes its own (the app again, flagged internal) and compares. `bridge` (canary): the
 * caller gets v2bridge's answer; after it, v2 is asked and compared. Writes go to one side only (v2
 * in `v2` mode, NerdGraph in `bridge` mode) and count as not compared. A read is compared with all
 * its parameters in the query (a form body's too, read as Rails reads it: src/http/params.ts), so
 * both sides see the same call.
 */
import type { Context } from 'hono'
import type { OperationRow } from '../../mappings/operations'
import type { Env } from '../http/env'
import { afterAnswer, Comparer, copyOf } from './index'
import type { Outcome } from './aggregate'

export interface CallHooks {
  /** Sends `req` (the caller's own request when absent) to v2 with the caller's key; a
   * comparison's own read (`comparison`) within the comparisons' budget, never the key's slots. */
  toV2(c: Context<Env>, req?: Request, comparison?: boolean): Promise<Response>
  /** v2bridge's own answer to `req`, computed by the app as an internal call. */
  own(c: Context<Env>, req: Request): Promise<Response>
  /** The parameters of a read's body (form or JSON), read once. */
  bodyParams(c: Context<Env>): Promise<[string, string][]>
  /** An outcome, once known. */
  settle(c: Context<Env>, outcome: Outcome): void
}

/** Headers of the caller's request that a compared read does not carry: its body's, and those that
 * would make an answer conditional or an explanation. */
const dropped = [
  'content-type',
  'content-length',
  'transfer-encoding',
  'if-none-match',
  'if-modified-since',
  'x-v2bridge-explain',
]

/** A factory of the read both sides are asked: GET (or HEAD) with every parameter in the query. */
function readOf(c: Context<Env>, pairs: Iterable<[string, string]> | undefined) {
  const url = new URL(c.req.url)
  if (pairs) {
    url.search = ''
    for (const [k, v] of pairs) url.searchParams.append(k, v)
  }
  const headers = new Headers(c.req.raw.headers)
  for (const h of dropped) headers.delete(h)
  const method = c.req.method === 'HEAD' ? 'HEAD' : 'GET'
  return () => new Request(url, { method, headers })
}

const isRead = (c: Context<Env>, row: OperationRow) =>
  row.method === 'GET' && (c.req.method === 'GET' || c.req.method === 'HEAD')

export function compareCalls(hooks: CallHooks, comparer = new Comparer()) {
  const op = (row: OperationRow) => ({ method: row.method, path: row.path })
  const outcome = (row: OperationRow, result: 'skipped' | 'not_compared' | 'error'): Outcome => ({
    ...op(row),
    result,
    differences: [],
    documented: [],
    noisy: [],
    cosmetic: [],
  })
  const run = (c: Context<Env>, job: () => Promise<Outcome>, done: () => void) =>
    afterAnswer(c, () =>
      job()
        .then((o) => hooks.settle(c, o))
        .finally(done)
    )

  return {
    comparer,
    /** `v2` mode: v2's answer for the caller; the comparison after it. */
    async shadow(c: Context<Env>, row: OperationRow): Promise<Response> {
      if (!isRead(c, row)) {
        const res = await hooks.toV2(c)
        hooks.settle(c, outcome(row, 'not_compared'))
        return res
      }
      const read = readOf(c, [...new URL(c.req.url).searchParams, ...(await hooks.bodyParams(c))])
      const res = await hooks.toV2(c, read()).catch((err: unknown) => {
        hooks.settle(c, outcome(row, 'error')) // v2 could not answer: nothing to compare
        throw err
      })
      // v2 refused the key (401): nothing to verify, and no NerdGraph request for it.
      const done =
        res.status === 401 ? undefined : comparer.admit(c.get('config').compare, c.get('keyHash'))
      if (!done) hooks.settle(c, outcome(row, 'skipped'))
      else {
        const theirs = copyOf(res)
        run(
          c,
          () =>
            comparer.compare(
              op(row),
              Promise.resolve(theirs),
              hooks.own(c, read()),
              () => hooks.toV2(c, read(), true),
              c.get('keyHash')
            ),
          done
        )
      }
      return res
    },
    /** `bridge` mode, after v2bridge answered: v2 is asked and compared after the answer. */
    canary(c: Context<Env>, row: OperationRow): void {
      if (!isRead(c, row)) return hooks.settle(c, outcome(row, 'not_compared'))
      // 304: the client's copy, nothing to compare.
      // 401: a key NerdGraph refused, nothing to verify and no v2 request for it.
      if (c.res.status === 304 || c.res.status === 401)
        return hooks.settle(c, outcome(row, 'skipped'))
      const done = comparer.admit(c.get('config').compare, c.get('keyHash'))
      if (!done) return hooks.settle(c, outcome(row, 'skipped'))
      const mine = copyOf(c.res)
      const read = readOf(c, c.get('params')?.entries())
      run(
        c,
        () =>
          comparer.compare(
            op(row),
            hooks.toV2(c, read(), true),
            Promise.resolve(mine),
            () => hooks.toV2(c, read(), true),
            c.get('keyHash')
          ),
        done
      )
    },
  }
}
