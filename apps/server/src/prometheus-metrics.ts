type Labels = Record<string, string>

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')
const labelText = (labels: Labels) => {
  const entries = Object.entries(labels)
  return entries.length ? `{${entries.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}` : ''
}
/** A metric's labels: any of its declared names (Prometheus keeps one fixed set per metric). */
type LabelsOf<L extends string> = { readonly [K in L]?: string }

// A series' Map key: the values in declared order. Sorting and serialising each label set instead (JSON of its
// sorted entries) was ~1 % of the server's CPU on a cache miss, which updates metrics for every provider call.
const seriesKey = (names: readonly string[], labels: Readonly<Record<string, string | undefined>>) =>
  names.length === 1 ? (labels[names[0]!] ?? '') : names.map((n) => labels[n] ?? '').join('\u0000')

/** A monotonically increasing count per label set. */
export class Counter<L extends string = never> {
  private readonly values = new Map<string, { labels: Labels; value: number }>()
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly L[] = [],
  ) {}
  inc(labels: LabelsOf<L> = {}, by = 1): void {
    const key = seriesKey(this.labelNames, labels)
    const slot = this.values.get(key)
    if (slot) slot.value += by
    else this.values.set(key, { labels: labels as Labels, value: by })
  }
  get(labels: LabelsOf<L> = {}): number {
    return this.values.get(seriesKey(this.labelNames, labels))?.value ?? 0
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`]
    for (const { labels, value } of this.values.values()) lines.push(`${this.name}${labelText(labels)} ${value}`)
    return lines.join('\n')
  }
}

/** Cumulative buckets per label set, in seconds. */
export class Histogram<L extends string = never> {
  private readonly values = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>()
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly L[] = [],
    readonly buckets: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  ) {}
  observe(labels: LabelsOf<L>, seconds: number): void {
    const key = seriesKey(this.labelNames, labels)
    let slot = this.values.get(key)
    if (!slot) {
      slot = { labels: labels as Labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 }
      this.values.set(key, slot)
    }
    const { buckets } = this
    for (let i = 0; i < buckets.length; i++) if (seconds <= buckets[i]!) slot.counts[i]!++
    slot.sum += seconds
    slot.count++
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`]
    for (const { labels, counts, sum, count } of this.values.values()) {
      for (const [i, le] of this.buckets.entries())
        lines.push(`${this.name}_bucket${labelText({ ...labels, le: String(le) })} ${counts[i]}`)
      lines.push(`${this.name}_bucket${labelText({ ...labels, le: '+Inf' })} ${count}`)
      lines.push(`${this.name}_sum${labelText(labels)} ${Number(sum.toFixed(6))}`)
      lines.push(`${this.name}_count${labelText(labels)} ${count}`)
    }
    return lines.join('\n')
  }
}

/** Gauges are computed when scraped (budget use, Redis up), so they are rendered from a snapshot. */
export function renderGauge(name: string, help: string, samples: { labels: Labels; value: number }[]): string {
  return [
    `# HELP ${name} ${help}`,
    `# TYPE ${name} gauge`,
    ...samples.map((s) => `${name}${labelText(s.labels)} ${s.value}`),
  ].join('\n')
}

/** The server's metrics, one instance per app. */
export function createMetrics() {
  return {
    requests: new Counter('search_layer_http_requests_total', 'HTTP requests by route, method and status.', [
      'route',
      'method',
      'status',
    ]),
    latency: new Histogram('search_layer_http_request_duration_seconds', 'HTTP request latency by route.', ['route']),
    providerCalls: new Counter(
      'search_layer_provider_calls_total',
      'Provider calls by provider and outcome (ok, skipped or the error kind).',
      ['provider', 'outcome'],
    ),
    providerLatency: new Histogram(
      'search_layer_provider_call_duration_seconds',
      'Provider call latency by provider.',
      ['provider'],
    ),
    cache: new Counter(
      'search_layer_cache_requests_total',
      'Search responses served from the cache (hit) or computed (miss).',
      ['result'],
    ),
    rateLimited: new Counter('search_layer_rate_limited_total', 'Requests refused by the per-client rate limit.'),
  }
}
export type Metrics = ReturnType<typeof createMetrics>
