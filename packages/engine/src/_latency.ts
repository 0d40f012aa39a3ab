// How long a provider takes to answer, learned per key from its own calls. Real engines differ by an order of
// magnitude (Brave ~0.4 s, Grok's web search 5–20 s): a search starts the slowest first and, in fast and answer
// modes, lets a typically quick engine stand in for one that is typically far slower.
//
// The estimator is the last `MAX_LATENCY_SAMPLES` call durations, kept as they are. A window, not a decaying
// histogram: 64 numbers (under 1 KB stored) give exact quantiles with no bucket error at the tails a decision reads
// (p90, p95), and an engine that changes (a new plan, a slower model) is fully relearned after 64 calls, where a
// decay rate would have to be tuned. Only the order of samples is needed to drop the oldest.
//
// A call cut off while still running (a `late` engine when the search settled, or the deadline) says only that the
// engine takes at least that long: a censored sample. Counted as a plain duration it would make an engine that is
// always cut off look as fast as the cut-off; dropped, it would leave only that engine's rare quick answers. The
// quantiles are Kaplan–Meier estimates, which read a censored sample as "longer than this" and nothing more.

/** The most samples kept per key; the oldest goes first. */
export const MAX_LATENCY_SAMPLES = 64
/** Calls timed before a provider's learned latency decides anything (a single slow call could be a fluke). */
const MIN_LATENCY_SAMPLES = 3

/** Learned latency that may decide (start order, stand-ins); until then a provider's `typicalLatencyMs` does. */
export const isTimed = (latency: LatencySummary | undefined): latency is LatencySummary =>
  latency !== undefined && latency.samples >= MIN_LATENCY_SAMPLES

/** One call's duration (ms, from its request to its answer); `late`: cut off then, so at least that long. */
export interface LatencySample {
  ms: number
  late?: true
}

/** A key's learned latency, as stored with its state. */
export interface LearnedLatency {
  /** Epoch ms of the newest sample. */
  updatedAt: number
  /** Oldest first, at most `MAX_LATENCY_SAMPLES`. */
  samples: LatencySample[]
}

/** A latency quantile; `atLeast` when the calls cut off leave only a lower bound for it. */
export interface LatencyQuantile {
  ms: number
  atLeast?: true
}

/** What the samples say. */
export interface LatencySummary {
  /** Samples in the window, cut-off ones included. */
  samples: number
  /** Of them, calls cut off while still running. */
  late: number
  p50: LatencyQuantile
  p90: LatencyQuantile
  p95: LatencyQuantile
}

/** The latency with one more sample, the oldest dropped past `MAX_LATENCY_SAMPLES`. */
export function withSample(latency: LearnedLatency | undefined, sample: LatencySample, now: number): LearnedLatency {
  const samples = [...(latency?.samples ?? []), sample]
  return { updatedAt: now, samples: samples.slice(-MAX_LATENCY_SAMPLES) }
}

/**
 * The quantiles of `samples` (Kaplan–Meier): a cut-off sample leaves the set at risk without counting as an answer.
 * When the answers seen cannot reach a quantile (every slower call was cut off), it is the longest cut-off, marked
 * `atLeast`. Undefined with no sample.
 */
export function summarizeLatency(samples: readonly LatencySample[]): LatencySummary | undefined {
  if (samples.length === 0) return undefined
  // Ties: an answer at t comes before a cut-off at t (the cut-off one was still at risk then).
  const sorted = [...samples].sort((a, b) => a.ms - b.ms || Number(a.late ?? false) - Number(b.late ?? false))
  const longest = sorted.at(-1)!.ms
  const quantile = (q: number): LatencyQuantile => {
    let survival = 1
    for (let i = 0; i < sorted.length; i++) {
      const sample = sorted[i]!
      if (sample.late) continue
      survival *= 1 - 1 / (sorted.length - i)
      // A small tolerance: 1 − S is a product of fractions, and q = 0.5 of ten samples must land on the fifth.
      if (1 - survival >= q - 1e-9) return { ms: sample.ms }
    }
    return { ms: longest, atLeast: true }
  }
  return {
    samples: samples.length,
    late: samples.filter((s) => s.late).length,
    p50: quantile(0.5),
    p90: quantile(0.9),
    p95: quantile(0.95),
  }
}

/**
 * Why a call was cut off, as its abort reason: `censors` when it was still running at a time its engine chose
 * nothing about (the search settled, the deadline came), so its duration so far is a lower bound; not when the
 * caller gave up (a cancel says nothing about the engine).
 */
export class CallCutOff extends Error {
  override readonly name = 'CallCutOff'
  constructor(
    message: string,
    readonly censors: boolean,
  ) {
    super(message)
  }
}

/** `1.1 s`, `450 ms`, with `≥` for a lower bound. */
export function formatLatency(q: LatencyQuantile): string {
  const value = q.ms >= 1000 ? `${(q.ms / 1000).toFixed(1)} s` : `${Math.round(q.ms)} ms`
  return q.atLeast ? `≥ ${value}` : value
}
