/**
 * @module bench/canned-upstream
 * A stand-in NerdGraph for the benchmarks: it answers every metric-data document with synthetic rows
 * for each requested name and bucket, shaped as NerdGraph shapes FACET/TIMESERIES results (the
 * simulator's simulator/nrql/shape.ts), with full-precision floats and integer counts. Answers are
 * memoised by request body, so the upstream's own cost is a map lookup and a write. `GET /_last` answers
 * the body of the last GraphQL request, `GET /_count` how many it has answered.
 */
import { createServer } from 'node:http'
import { parseNrql, resolveWindow, type Condition, type SelectExpr } from '../simulator'

/** Deterministic doubles in [0, 1): xorshift over a per-answer seed. */
function random(seed: number) {
  let s = seed >>> 0 || 1
  return () => {
    s ^= s << 13
    s ^= s >>> 17
    s ^= s << 5
    return (s >>> 0) / 2 ** 32
  }
}

function namesIn(where: Condition | null): string[] {
  if (!where) return []
  if (where.type === 'in' && where.attribute === 'metricTimesliceName')
    return where.values.map(String)
  if (where.type === 'and' || where.type === 'or') return where.conditions.flatMap(namesIn)
  return []
}

const isCount = (e: SelectExpr) =>
  e.type === 'aggregate' && e.fn === 'count' && e.arg.type === 'timeslice'

/** NerdGraph's `results` for one metric-data NRQL: every name has data in every bucket. */
export function cannedResults(nrql: string, now = Date.now()): Record<string, unknown>[] {
  const query = parseNrql(nrql)
  const window = resolveWindow(query, now)
  const next = random(nrql.length * 7919)
  const rows: Record<string, unknown>[] = []
  const first = query.select[0]
  // A known-names query: one row listing every requested name (src/resources/metrics/plan.ts).
  if (first?.expr.type === 'uniques') return [{ [first.alias ?? 'names']: namesIn(query.where) }]
  for (const name of namesIn(query.where)) {
    for (const bucket of window.buckets) {
      const row: Record<string, unknown> = { facet: name, metricTimesliceName: name }
      if (query.timeseries !== null) {
        row['beginTimeSeconds'] = bucket.begin / 1000
        row['endTimeSeconds'] = bucket.end / 1000
      }
      query.select.forEach((item, i) => {
        const key = item.alias ?? `item${i}`
        row[key] = isCount(item.expr) ? Math.floor(next() * 5000) : next() * 900 + next()
      })
      rows.push(row)
    }
  }
  return rows
}

/** The whole answer to a GraphQL body `{ query, variables }`: each `alias: nrql(query: $var)`. */
export function cannedAnswer(bodyText: string): string {
  const body = JSON.parse(bodyText) as { query: string; variables?: Record<string, unknown> }
  const account: Record<string, { results: Record<string, unknown>[]; metadata: object }> = {}
  for (const m of body.query.matchAll(/(\w+)\s*:\s*nrql\(query:\s*\$(\w+)/g)) {
    const nrql = body.variables?.[m[2]!]
    // `metadata.facets` names the FACET attributes, by which rows are read (src/upstream/nrql-rows.ts).
    if (typeof nrql === 'string')
      account[m[1]!] = {
        results: cannedResults(nrql),
        metadata: { facets: parseNrql(nrql).facet },
      }
  }
  return JSON.stringify({ data: { actor: { account } } })
}

export interface CannedUpstream {
  url: string
  /** The body of the last GraphQL request, for the passthrough to send the same one. */
  lastBody(): string | undefined
  /** GraphQL requests answered so far. */
  count(): number
  close(): Promise<void>
}

export function startCannedUpstream(port = 0): Promise<CannedUpstream> {
  const answers = new Map<string, string>()
  let last: string | undefined
  let count = 0
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      if (req.url === '/_last') return void res.end(last ?? '')
      if (req.url === '/_count') return void res.end(String(count))
      last = body
      count++
      let answer = answers.get(body)
      try {
        if (answer === undefined) answers.set(body, (answer = cannedAnswer(body)))
      } catch (err) {
        res.writeHead(500).end(String(err))
        return
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer)
    })
  })
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const address = server.address()
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`
      resolve({
        url,
        lastBody: () => last,
        count: () => count,
        close: () => new Promise((done) => server.close(() => done())),
      })
    })
  })
}
