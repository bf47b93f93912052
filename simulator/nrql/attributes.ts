/** @module simulator/nrql/attributes The `FROM Metric` attributes the subset knows. */
import { NrqlError } from '../types'
import type { MetricRow } from '../types'
import type { Attribute, FacetAttribute } from './ast'
import type { Cursor } from './cursor'

export type AttributeValue = string | number | null

interface AttributeInfo {
  kind: 'number' | 'string'
  get: (row: MetricRow) => AttributeValue
}

/** Row accessor and value type of each facetable attribute (see MetricRow in ../types). */
export const ATTRIBUTES: Record<FacetAttribute, AttributeInfo> = {
  appId: { kind: 'number', get: (r) => r.appId },
  appName: { kind: 'string', get: (r) => r.appName },
  metricTimesliceName: { kind: 'string', get: (r) => r.metricTimesliceName },
  host: { kind: 'string', get: (r) => r.host },
  instanceName: { kind: 'string', get: (r) => r.instanceName },
  'entity.guid': { kind: 'string', get: (r) => r.entityGuid },
  scope: { kind: 'string', get: (r) => r.scope },
}

export const TIMESLICE = 'newrelic.timeslice.value'

export function isFacetAttribute(name: string): name is FacetAttribute {
  return Object.hasOwn(ATTRIBUTES, name)
}

/** Is the next token an attribute reference (bare identifier or backtick-quoted)? */
export function atAttribute(cursor: Cursor): boolean {
  const kind = cursor.peek().kind
  return kind === 'ident' || kind === 'backtick'
}

/** Reads an attribute name (bare or backtick-quoted) and checks it is known. */
export function parseAttribute(cursor: Cursor): Attribute {
  if (!atAttribute(cursor)) throw cursor.unexpected('an attribute name')
  const name = cursor.next().value
  if (name === TIMESLICE || isFacetAttribute(name)) return name
  throw new NrqlError(`Unknown attribute '${name}' for Metric`, 'INVALID_INPUT')
}

/** Reads an attribute that holds a plain value (not the timeslice). */
export function parseFacetAttribute(cursor: Cursor): FacetAttribute {
  const name = parseAttribute(cursor)
  if (name === TIMESLICE) {
    throw new NrqlError(`'${TIMESLICE}' cannot be used here`, 'INVALID_INPUT')
  }
  return name
}
