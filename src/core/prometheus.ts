/**
 * @module core/prometheus
 * Counters, histograms and gauges with labels, written in the Prometheus text exposition format
 * (Prometheus docs "Exposition formats", text format 0.0.4). Label values come from fixed sets
 * (route templates, methods, statuses, class names), never from what a caller typed.
 */

export const contentType = 'text/plain; version=0.0.4; charset=utf-8'

type Labels = readonly string[]

const escapeLabel = (v: string) =>
  v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
/** A sample value: 15 significant digits, which every double holds exactly, so a sum of durations
 * prints 0.3, not the 0.30000000000000004 its binary addition left. */
const format = (n: number) =>
  Number.isFinite(n) ? String(Number(n.toPrecision(15))) : n > 0 ? '+Inf' : '-Inf'

function labelText(names: Labels, values: Labels, extra = ''): string {
  const pairs = names.map((n, i) => `${n}="${escapeLabel(values[i] ?? '')}"`)
  if (extra) pairs.push(extra)
  return pairs.length ? `{${pairs.join(',')}}` : ''
}

interface Metric {
  render(): string[]
}

class Series<V> {
  readonly byKey = new Map<string, { labels: Labels; value: V }>()
  constructor(private readonly fresh: () => V) {}
  at(labels: Labels): V {
    const key = labels.join('\u0000')
    let entry = this.byKey.get(key)
    if (!entry) this.byKey.set(key, (entry = { labels, value: this.fresh() }))
    return entry.value
  }
}

export class Counter implements Metric {
  private readonly series = new Series(() => ({ n: 0 }))
  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly labelNames: Labels = []
  ) {
    if (labelNames.length === 0) this.series.at([]) // a plain counter reads 0 before its first event
  }
  inc(labels: Labels = [], by = 1): void {
    this.series.at(labels).n += by
  }
  render(): string[] {
    const out = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`]
    for (const { labels, value } of this.series.byKey.values())
      out.push(`${this.name}${labelText(this.labelNames, labels)} ${format(value.n)}`)
    return out
  }
}

export class Histogram implements Metric {
  private readonly series: Series<{ counts: number[]; sum: number; count: number }>
  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly buckets: readonly number[],
    private readonly labelNames: Labels = []
  ) {
    this.series = new Series(() => ({ counts: buckets.map(() => 0), sum: 0, count: 0 }))
    if (labelNames.length === 0) this.series.at([])
  }
  observe(labels: Labels, value: number): void {
    const s = this.series.at(labels)
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) s.counts[i]!++
    s.sum += value
    s.count++
  }
  render(): string[] {
    const out = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`]
    for (const { labels, value } of this.series.byKey.values()) {
      this.buckets.forEach((le, i) =>
        out.push(
          `${this.name}_bucket${labelText(this.labelNames, labels, `le="${format(le)}"`)} ${value.counts[i]}`
        )
      )
      out.push(
        `${this.name}_bucket${labelText(this.labelNames, labels, 'le="+Inf"')} ${value.count}`
      )
      out.push(`${this.name}_sum${labelText(this.labelNames, labels)} ${format(value.sum)}`)
      out.push(`${this.name}_count${labelText(this.labelNames, labels)} ${value.count}`)
    }
    return out
  }
}

/** A value read when scraped. */
export class Gauge implements Metric {
  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly read: () => number
  ) {}
  render(): string[] {
    return [
      `# HELP ${this.name} ${this.help}`,
      `# TYPE ${this.name} gauge`,
      `${this.name} ${format(this.read())}`,
    ]
  }
}

export class Registry {
  private readonly metrics: Metric[] = []
  add<M extends Metric>(metric: M): M {
    this.metrics.push(metric)
    return metric
  }
  render(): string {
    return this.metrics.flatMap((m) => m.render()).join('\n') + '\n'
  }
}
