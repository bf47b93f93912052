/** @module simulator/nrql/hints Store scan hints provable from a conjunctive WHERE. */
import type { ScanHint } from '../types'
import type { Condition, Literal } from './ast'
import { coerceLiteral } from './condition'

type HintKey = 'appIds' | 'entityGuids' | 'names' | 'hosts'
const HINTED: Record<string, HintKey> = {
  appId: 'appIds',
  'entity.guid': 'entityGuids',
  metricTimesliceName: 'names',
  host: 'hosts',
}

/** Narrows the scan with every top-level `attr = x` / `attr IN (…)` conjunct (intersected). */
export function scanHint(where: Condition | null, base: ScanHint): ScanHint {
  const hint: ScanHint = { ...base }
  const conjuncts = where === null ? [] : where.type === 'and' ? where.conditions : [where]
  for (const c of conjuncts) {
    let values: Literal[]
    if (c.type === 'compare' && c.op === '=') values = [c.value]
    else if (c.type === 'in' && !c.negated) values = c.values
    else continue
    const key = HINTED[c.attribute]
    if (key === undefined) continue
    if (key === 'appIds') {
      const ids = values.map((v) => coerceLiteral('number', v) as number).filter(Number.isFinite)
      hint.appIds = intersect(hint.appIds, ids)
    } else {
      hint[key] = intersect(hint[key], values.map(String))
    }
  }
  return hint
}

function intersect<T>(previous: readonly T[] | undefined, next: T[]): T[] {
  const unique = [...new Set(next)]
  return previous === undefined ? unique : unique.filter((v) => previous.includes(v))
}
