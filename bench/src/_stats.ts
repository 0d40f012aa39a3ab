/** Distribution summary of one variant's samples, in milliseconds. */
export interface Summary {
  n: number
  p50: number
  p95: number
  max: number
  mean: number
}

/** Nearest-rank percentile (p in 0..100) of already sorted samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!
}

/** p50/p95/max/mean of a list of samples (ms), rounded to 0.01 ms. */
export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b)
  const mean = sorted.reduce((s, x) => s + x, 0) / Math.max(1, sorted.length)
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    max: round(sorted.at(-1) ?? Number.NaN),
    mean: round(mean),
  }
}

/**
 * The "best of 5": each run of `size` consecutive samples keeps its fastest, and the median of those is
 * reported, so one lucky run among many does not stand for the whole series. A tail shorter than `size` is left out.
 */
export function bestOfGroups(samples: readonly number[], size = 5): number {
  const bests: number[] = []
  for (let at = 0; at + size <= samples.length; at += size) bests.push(Math.min(...samples.slice(at, at + size)))
  bests.sort((a, b) => a - b)
  return round(percentile(bests, 50))
}

/** Rounds to `digits` decimals (NaN stays NaN). */
function round(x: number, digits = 2): number {
  const f = 10 ** digits
  return Math.round(x * f) / f
}

/** One upstream request as the emulator logged it (epoch ms, millisecond resolution). */
export interface Span {
  startedAt: number
  endedAt?: number
}

/**
 * Sequential round trips in a request log: requests that started only after every earlier request had
 * ended — the length of the critical chain a client waited through.
 */
export function sequentialRoundTrips(spans: readonly Span[]): number {
  const sorted = [...spans].sort((a, b) => a.startedAt - b.startedAt)
  let trips = 0
  let latestEnd = Number.NEGATIVE_INFINITY
  let anyOpen = false
  for (const span of sorted) {
    if (!anyOpen && span.startedAt >= latestEnd) trips++
    if (span.endedAt === undefined) anyOpen = true
    else latestEnd = Math.max(latestEnd, span.endedAt)
  }
  return trips
}

/** Longest upstream request in a log (ms); requests that never ended are ignored. */
export function slowestSpanMs(spans: readonly Span[]): number {
  let slowest = 0
  for (const span of spans) if (span.endedAt !== undefined) slowest = Math.max(slowest, span.endedAt - span.startedAt)
  return slowest
}
