/**
 * @module resources/metrics/request
 * v2 parameters of the metric routes, validated before any upstream request (v2 explorer metric
 * names and data parameters; spellings clients send, src/http/params.ts): names in every spelling, values
 * comma-joined or not, times, period, summarize, raw, paging.
 */
import { V2Error } from '../../core/errors'
import { pageParam, type V2Params } from '../../http/params'
import { resolveTimeRange } from '../../core/time-range'
import type { MetricDataRequest } from './plan'

export const requestTitles = {
  // A missing required parameter is 400 `missing parameter: <name>` on v2 (recorded for
  // `policy_id`, docs-website issue #7091; Rails' ParameterMissing is a 400).
  noNames: 'missing parameter: names',
  cursor: "Invalid 'cursor' parameter",
} as const

/**
 * `names[]`, `names` or `names[N]`, and `name` as their alias (a single name, as some clients send
 * it); never split on commas (names contain them), newline-joined lists
 * (reliquary) split; duplicates dropped, request order kept. `values[]` may be comma-joined.
 */
export function metricDataRequest(params: V2Params, now: number): MetricDataRequest {
  const names = unique(
    [...params.list('names'), ...params.list('name')]
      .flatMap((n) => n.split(/\r?\n/))
      .filter((n) => n !== '')
  )
  if (names.length === 0) throw new V2Error(400, requestTitles.noNames)
  const values = unique(
    params
      .list('values')
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
  ).filter((v) => v !== '')
  const range = resolveTimeRange(
    {
      from: params.get('from'),
      to: params.get('to'),
      period: params.get('period'),
      summarize: params.bool('summarize'),
    },
    now
  )
  return { now, names, values: values.length ? values : null, range, raw: params.bool('raw') }
}

export interface MetricNamesRequest {
  /** The `name` substring filter, if any. */
  name: string | undefined
  /** 1-based page. */
  page: number
  /** true when the caller pages by cursor (or not at all); false when it sent `page`. */
  cursorMode: boolean
}

/** A cursor is the opaque form of an offset into the name list. */
export function encodeCursor(offset: number): string {
  return btoa(`v2bridge:${offset}`).replace(/=+$/, '')
}

function decodeCursor(cursor: string, pageSize: number): number {
  let text = ''
  try {
    text = atob(cursor.trim())
  } catch {
    throw new V2Error(422, requestTitles.cursor)
  }
  const m = /^v2bridge:(\d{1,9})$/.exec(text)
  if (!m || Number(m[1]) % pageSize !== 0) throw new V2Error(422, requestTitles.cursor)
  return Number(m[1]) / pageSize + 1
}

export function metricNamesRequest(params: V2Params, pageSize: number): MetricNamesRequest {
  const name = params.get('name') || undefined
  const cursor = params.get('cursor')
  if (cursor) return { name, page: decodeCursor(cursor, pageSize), cursorMode: true }
  if (params.get('page')?.trim() === undefined || params.get('page')?.trim() === '') {
    return { name, page: 1, cursorMode: true }
  }
  return { name, page: pageParam(params), cursorMode: false }
}

function unique(list: string[]): string[] {
  return [...new Set(list)]
}
