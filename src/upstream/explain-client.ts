/**
 * @module upstream/explain-client
 * The NerdGraph client of a request in explain mode: lookups (`{ lookup: true }`, e.g. the
 * application's account) are sent as usual; any other document is recorded instead of sent, and the
 * handler is stopped there. Every request is also noted (document and variables by reference) for
 * the migration report, which reads them after the answer.
 */
import { V2Error } from '../core/errors'
import type { NerdGraph } from './nerdgraph'

export interface SentDocument {
  document: string
  variables: Record<string, unknown>
  /** Sent to resolve an ID (explain mode lets it through). */
  lookup: boolean
}

/** Thrown where the first recorded document would have gone upstream; explain answers instead. */
export class ExplainStop extends V2Error {
  constructor() {
    super(200, 'explained')
    this.name = 'ExplainStop'
  }
}

/** Wraps `inner`: notes every document in `sent`; in explain mode only lookups reach `inner`. */
export function notingClient(inner: NerdGraph, sent: SentDocument[], explain: boolean): NerdGraph {
  return {
    query(document, variables = {}, options = {}) {
      const lookup = options.lookup === true
      sent.push({ document, variables, lookup })
      if (explain && !lookup) return Promise.reject(new ExplainStop())
      return inner.query(document, variables, options)
    },
  }
}
