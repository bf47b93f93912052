/**
 * @module upstream/telemetry
 * What `GET /metrics` reports on Node, per app instance (the Worker counts nothing: src/app.ts
 * `AppOptions.telemetry`): requests by route template, method and status; request and NerdGraph latency;
 * NerdGraph requests, retries and faults by class (src/upstream/retry.ts `FaultKind`); cache hits and misses
 * per cache (src/core/caches.ts); the upstream queue. Labels are templates and fixed names only: never a
 * raw path, ID, name or key.
 */
import { Counter, Gauge, Histogram, Registry } from '../core/prometheus'
import type { FaultKind } from './retry'

/** Seconds; from a cached answer (ms) to NerdGraph's slowest queries (tens of seconds). */
const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]
const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])

export interface QueueState {
  inFlight: number
  queued: number
}

export interface Telemetry {
  request(route: string, method: string, status: number, seconds: number): void
  upstreamAttempt(seconds: number): void
  upstreamRetry(): void
  upstreamFault(kind: FaultKind | 'overload'): void
  cacheLookup(cache: string, hit: boolean): void
  /** One comparison of compare mode (src/compare/): the operation row and its outcome. */
  compared(operation: string, outcome: string): void
  render(): string
}

export function createTelemetry(queue: () => QueueState): Telemetry {
  const r = new Registry()
  const requests = r.add(
    new Counter('v2bridge_http_requests_total', 'HTTP requests answered.', [
      'route',
      'method',
      'status',
    ])
  )
  const requestSeconds = r.add(
    new Histogram('v2bridge_http_request_duration_seconds', 'Time to answer.', latencyBuckets, [
      'route',
      'method',
    ])
  )
  const upstream = r.add(
    new Counter(
      'v2bridge_nerdgraph_requests_total',
      'HTTP requests sent to NerdGraph, retries included.'
    )
  )
  const upstreamSeconds = r.add(
    new Histogram(
      'v2bridge_nerdgraph_request_duration_seconds',
      'Time of one NerdGraph request.',
      latencyBuckets
    )
  )
  const retries = r.add(
    new Counter('v2bridge_nerdgraph_retries_total', 'NerdGraph requests that were retries.')
  )
  const faults = r.add(
    new Counter('v2bridge_nerdgraph_faults_total', 'Failed NerdGraph requests by fault class.', [
      'class',
    ])
  )
  const hits = r.add(
    new Counter('v2bridge_cache_hits_total', 'Cache lookups answered from the cache.', ['cache'])
  )
  const misses = r.add(
    new Counter('v2bridge_cache_misses_total', 'Cache lookups not in the cache.', ['cache'])
  )
  const compared = r.add(
    new Counter('v2bridge_compare_total', 'Calls of compare mode by operation and outcome.', [
      'operation',
      'outcome',
    ])
  )
  r.add(
    new Gauge(
      'v2bridge_nerdgraph_in_flight',
      'NerdGraph requests running now.',
      () => queue().inFlight
    )
  )
  r.add(
    new Gauge(
      'v2bridge_nerdgraph_queue_depth',
      'NerdGraph requests waiting for a slot.',
      () => queue().queued
    )
  )
  return {
    request(route, method, status, seconds) {
      const m = methods.has(method) ? method : 'other'
      requests.inc([route, m, String(status)])
      requestSeconds.observe([route, m], seconds)
    },
    upstreamAttempt(seconds) {
      upstream.inc()
      upstreamSeconds.observe([], seconds)
    },
    upstreamRetry: () => retries.inc(),
    upstreamFault: (kind) => faults.inc([kind]),
    cacheLookup: (cache, hit) => (hit ? hits : misses).inc([cache]),
    compared: (operation, outcome) => compared.inc([operation, outcome]),
    render: () => r.render(),
  }
}
