/**
 * @module upstream/json-copy
 * A deep copy of a parsed JSON value without recursion, for the followers of a coalesced read
 * (src/upstream/nerdgraph.ts): `structuredClone` recurses and throws a RangeError on an answer
 * nested about 2,000 deep, which the leader itself answered (issue 40, item 10). The copy walks an
 * explicit stack, so any depth the parser took is copied; values, key order and `__proto__` as an
 * own key stay as `JSON.parse` gave them.
 */

type Container = Record<string, unknown> | unknown[]

/** A copy of `value` (plain objects, arrays and scalars, as JSON.parse gives them). */
export function copyJson<T>(value: T): T {
  const stack: [Container, Container][] = []
  const copyOf = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v
    const copy: Container = Array.isArray(v) ? new Array<unknown>(v.length) : {}
    stack.push([v as Container, copy])
    return copy
  }
  const root = copyOf(value)
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [from, to] = next
    if (Array.isArray(from)) {
      const array = to as unknown[]
      for (let i = 0; i < from.length; i++) array[i] = copyOf(from[i])
      continue
    }
    const object = to as Record<string, unknown>
    for (const key in from) {
      const v = copyOf(from[key])
      // An own `__proto__` key (JSON.parse makes one) stays a key, never the prototype.
      if (key === '__proto__')
        Object.defineProperty(object, key, {
          value: v,
          writable: true,
          enumerable: true,
          configurable: true,
        })
      else object[key] = v
    }
  }
  return root as T
}
