/**
 * @module simulator/v2/perturb — the stand-in's perturbation and noise switches (issue 24): one kind of
 * difference put into every 2xx answer on purpose, so a comparison can be shown to find it, and small
 * random noise on values over windows ending now, so noise learning can be shown to ignore it. Set by
 * `createSimulator({ v2: … })` or `POST /_sim/v2`; `POST /_sim/reset` restores the start-up setting.
 */
import type { Dataset } from '../data/dataset'
import { createRandom } from '../data/prng'

/** The noise's draws: seeded, so a test run draws the same noise every time (a failure repeats). */
const noise = createRandom(0x5eed)

export const PERTURBATIONS = ['value', 'missing-item', 'type', 'reorder', 'extra-field'] as const
export type Perturbation = (typeof PERTURBATIONS)[number]

export interface V2Switches {
  perturb: Perturbation | null
  jitter: boolean
}

interface SwitchState {
  current: V2Switches
  initial: V2Switches
}

const states = new WeakMap<Dataset, SwitchState>()
const off = (): V2Switches => ({ perturb: null, jitter: false })

/** The switches of one simulator (one dataset). */
export function v2SwitchesOf(dataset: Dataset): SwitchState {
  let state = states.get(dataset)
  if (!state) states.set(dataset, (state = { current: off(), initial: off() }))
  return state
}

/** Start-up setting (createSimulator's `v2` option): also what `reset` returns to. */
export function initV2Switches(dataset: Dataset, switches: Partial<V2Switches> = {}): void {
  const state = v2SwitchesOf(dataset)
  state.initial = { ...off(), ...switches }
  state.current = { ...state.initial }
}

type Json = unknown
type Obj = Record<string, Json>
const isObj = (v: Json): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v)

/** Keys whose numbers are identities, never perturbed (lists are matched by them). */
const identity = (key: string) => key === 'id' || key.endsWith('_id') || key === 'links'

/** Depth-first, in key order: the first place `pick` accepts. */
function find(
  node: Json,
  pick: (value: Json, key: string) => boolean,
  key = ''
): { parent: Obj | Json[]; key: string | number } | undefined {
  const entries: [string | number, Json][] = Array.isArray(node)
    ? node.map((v, i) => [i, v])
    : isObj(node)
      ? Object.entries(node)
      : []
  for (const [k, child] of entries) {
    const name = typeof k === 'number' ? key : k
    if (identity(name)) continue
    if (pick(child, name)) return { parent: node as Obj | Json[], key: k }
    const deeper = find(child, pick, name)
    if (deeper) return deeper
  }
  return undefined
}

const set = (at: { parent: Obj | Json[]; key: string | number }, value: Json) => {
  ;(at.parent as Record<string | number, Json>)[at.key] = value
}
const get = (at: { parent: Obj | Json[]; key: string | number }) =>
  (at.parent as Record<string | number, Json>)[at.key]

/** Puts one difference of the given kind into `body` (in place); returns whether it found a place. */
export function perturb(body: Obj, kind: Perturbation): boolean {
  const number = find(body, (v) => typeof v === 'number')
  // Bodies without numbers (metric names): a string that is not a name, or a boolean, instead.
  const text = find(body, (v, key) => typeof v === 'string' && key !== 'name')
  const scalar = number ?? find(body, (v) => typeof v === 'boolean') ?? text
  const list = (min: number) =>
    find(body, (v) => Array.isArray(v) && v.length >= min && v.some(isObj)) ??
    find(body, (v) => Array.isArray(v) && v.length >= min)
  switch (kind) {
    case 'value': // the first non-identity number ×1.1 (0 becomes 1), else a string changed
      if (number) set(number, (get(number) as number) === 0 ? 1 : (get(number) as number) * 1.1)
      else if (text) set(text, `${String(get(text))}_perturbed`)
      return Boolean(number ?? text)
    case 'type': // the first non-identity number (else boolean) as a string; else a string as a list
      if (!scalar) return false
      set(scalar, typeof get(scalar) === 'string' ? [get(scalar)] : String(get(scalar)))
      return true
    case 'missing-item': {
      const at = list(1)
      if (!at) return false
      ;(get(at) as Json[]).splice(0, 1)
      return true
    }
    case 'reorder': {
      const at = list(2)
      if (!at) return false
      ;(get(at) as Json[]).reverse()
      return true
    }
    case 'extra-field': {
      const at = find(body, (v) => isObj(v))
      const target = at ? (get(at) as Obj) : body
      target['perturbed_field'] = 'extra'
      return true
    }
  }
}

/** Summaries are "the last 3-4 minutes" (v2 explorer notes): values over a window ending now. */
const nowWindow = (key: string) => key.endsWith('_summary')

/** `last_reported_at` one minute earlier half the time: a call just before the agent's next harvest. */
function earlier(time: string): string {
  const ms = Date.parse(time)
  if (Number.isNaN(ms) || noise.next() < 0.5) return time
  return new Date(ms - 60_000).toISOString().replace(/\.\d{3}Z$/, '+00:00')
}

/** Counts (sums over whole calls or members) and settings (Apdex T) stay exact under noise. */
const exact = new Set(['s', 't', 'f', 'count', 'apdex_target', 'threshold', 'threshold_min'])
const isCount = (key: string) => key.endsWith('_count') || exact.has(key)

/** ±0.5 % uniform noise on every number but counts under a `*_summary` object, and on every
 * timeslice value of a metric-data answer whose window ends now (`to` omitted), rounded again to
 * 3 significant digits unless `raw`; `last_reported_at` a minute earlier half the time. */
export function jitter(body: Obj, dataWindowEndsNow: boolean, raw: boolean): void {
  const noisy = (v: number) => {
    const out = v * (1 + (noise.next() - 0.5) / 100)
    return raw ? out : Number(out.toPrecision(3))
  }
  const walk = (node: Json, inWindow: boolean) => {
    if (Array.isArray(node)) return node.forEach((child) => walk(child, inWindow))
    if (!isObj(node)) return
    for (const [key, value] of Object.entries(node)) {
      const here = inWindow || nowWindow(key) || (dataWindowEndsNow && key === 'values')
      if (typeof value === 'number' && here && !isCount(key) && !identity(key))
        node[key] = noisy(value)
      else if (key === 'last_reported_at' && typeof value === 'string') node[key] = earlier(value)
      else walk(value, here)
    }
  }
  walk(body, false)
}

/** Context the stand-in's handlers pass: the request URL and the switches (set by its middleware). */
interface FinishContext {
  req: { url: string }
  get(key: 'switches'): V2Switches | undefined
}

/** The last step of every stand-in 2xx answer before it is rendered (respond.ts `answer` calls it):
 * applies the perturbation and the jitter that are switched on. */
export function finish<B extends Obj>(c: FinishContext, body: B): B {
  const switches = c.get('switches')
  if (!switches || (!switches.perturb && !switches.jitter)) return body
  const out = structuredClone(body)
  if (switches.jitter) {
    const q = new URL(c.req.url).searchParams
    const raw = /^(true|1|yes)$/i.test(q.get('raw') ?? '')
    jitter(out, !q.has('to'), raw)
  }
  if (switches.perturb) perturb(out, switches.perturb)
  return out
}
