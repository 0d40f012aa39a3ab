type Labels = Record<string, string>

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')
const labelText = (labels: Labels) => {
  const entries = Object.entries(labels)
  return entries.length ? `{${entries.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}` : ''
}
// Only a Map key, so any fixed order will do: plain code-unit order, not localeCompare (an ICU collation on
// every metric update, ~2% of the server's CPU on the cache-miss path).
const labelKey = (labels: Labels) =>
  JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))

/** A monotonically increasing count per label set. */
export class Counter {
  private readonly values = new Map<string, { labels: Labels; value: number }>()
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels = {}, by = 1): void {
    const key = labelKey(labels)
    const slot = this.values.get(key)
    if (slot) slot.value += by
    else this.values.set(key, { labels, value: by })
  }
  get(labels: Labels = {}): number {
    return this.values.get(labelKey(labels))?.value ?? 0
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`]
    for (const { labels, value } of this.values.values()) lines.push(`${this.name}${labelText(labels)} ${value}`)
    return lines.join('\n')
  }
}

/** Cumulative buckets per label set, in seconds. */
export class Histogram {
  private readonly values = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>()
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  ) {}
  observe(labels: Labels, seconds: number): void {
    const key = labelKey(labels)
    let slot = this.values.get(key)
    if (!slot) {
      slot = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 }
      this.values.set(key, slot)
    }
    for (const [i, le] of this.buckets.entries()) if (seconds <= le) slot.counts[i]!++
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
    requests: new Counter('search_layer_http_requests_total', 'HTTP requests by route, method and status.'),
    latency: new Histogram('search_layer_http_request_duration_seconds', 'HTTP request latency by route.'),
    providerCalls: new Counter(
      'search_layer_provider_calls_total',
      'Provider calls by provider and outcome (ok, skipped or the error kind).',
    ),
    providerLatency: new Histogram('search_layer_provider_call_duration_seconds', 'Provider call latency by provider.'),
    cache: new Counter(
      'search_layer_cache_requests_total',
      'Search responses served from the cache (hit) or computed (miss).',
    ),
    rateLimited: new Counter('search_layer_rate_limited_total', 'Requests refused by the per-client rate limit.'),
  }
}
export type Metrics = ReturnType<typeof createMetrics>
