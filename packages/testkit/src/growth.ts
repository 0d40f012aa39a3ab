import { performance } from 'node:perf_hooks'
import v8 from 'node:v8'
import vm from 'node:vm'

/** Options of `measureGrowth`. */
/**
 * The largest `ratio` (time at 4n over time at n) a linear-time check accepts. Linear is 4 and quadratic 16; on a
 * heap shared with other test files, collections make a linear scan reach ~8 at these small sizes, so the line
 * sits between the two, where any quadratic step still fails.
 */
export const LINEAR_GROWTH_LIMIT = 10

export interface GrowthOptions {
  /** Smallest input size; doubled until a run takes at least `minMs`, so the figures stand above timer noise. */
  n: number
  /** Timed runs per size. Default 7. */
  runs?: number
  /** CPU time the fastest of three runs at the smallest size must reach before sizes are fixed (ms). Default 3. */
  minMs?: number
  /** Largest smallest size the doubling may reach. Default 100,000. */
  maxN?: number
  /**
   * Measure again, up to `attempts` times in all, while the ratio is at or above this, keeping the lowest: a
   * quadratic scan stays near 16 every time, a burst of load on a shared machine does not repeat. Default: no retry.
   * With it set, the timed rounds also end early, after three, once the ratio is under half of it (see `rounds`).
   */
  retryAbove?: number
  /** Default 3 when `retryAbove` is set. */
  attempts?: number
}

/** Time of one run at n, 2n and 4n, and how much it grew. */
export interface Growth {
  sizes: [number, number, number]
  /**
   * Least CPU time of the process over the runs at each size. CPU time, because on a shared machine a run's
   * wall time mostly measures how often it was preempted; the least, because other work only ever adds.
   */
  cpuMs: [number, number, number]
  /** Median wall time at each size, for the record. */
  wallMs: [number, number, number]
  /** cpuMs(4n) / cpuMs(n): about 4 for a linear scan, 16 for a quadratic one. */
  ratio: number
  /**
   * Timed rounds run: `runs`, or three when `retryAbove` is set and the ratio after three is under half of it. A
   * quadratic scan reads near 16 in every round, so it never stops early; a linear one needs no further evidence.
   */
  rounds: number
}

/** Rounds timed before a clearly linear ratio may end the measurement, and how far under the line it must be. */
const MIN_ROUNDS = 3
const EARLY_STOP_SHARE = 0.5

/**
 * Times `run(build(size))` at n, 2n and 4n (inputs built outside the timing, young garbage collected and the process
 * quiet before each run, sizes interleaved round by round) and reports the growth of its
 * CPU time. A complexity check, not a speed target: assert on `ratio`, report the times in the bench.
 */
export function measureGrowth<T>(
  build: (size: number) => T,
  run: (input: T) => unknown,
  options: GrowthOptions,
): Growth {
  const attempts = options.retryAbove === undefined ? 1 : (options.attempts ?? 3)
  let best = measureOnce(build, run, options)
  for (let i = 1; i < attempts && best.ratio >= options.retryAbove!; i++) {
    const again = measureOnce(build, run, options)
    if (again.ratio < best.ratio) best = again
  }
  return best
}

function measureOnce<T>(build: (size: number) => T, run: (input: T) => unknown, options: GrowthOptions): Growth {
  const runs = options.runs ?? 7
  const stopBelow = options.retryAbove === undefined ? 0 : options.retryAbove * EARLY_STOP_SHARE
  const [n, first] = smallestMeasurableSize(build, run, options)
  const sizes: [number, number, number] = [n, 2 * n, 4 * n]
  const inputs = [first, build(sizes[1]), build(sizes[2])]
  for (const input of inputs.slice(1)) run(input)
  const cpu: number[][] = [[], [], []]
  const wall: number[][] = [[], [], []]
  const ratio = () => Math.min(...cpu[2]!) / Math.max(Math.min(...cpu[0]!), 1e-3)
  let rounds = 0
  while (rounds < runs && !(rounds >= MIN_ROUNDS && ratio() < stopBelow)) {
    for (let i = 0; i < sizes.length; i++) {
      // The ratio compares n with 4n: those runs start on a quiet heap; 2n, kept for the record, need not.
      const t = timeOnce(run, inputs[i]!, i !== 1)
      cpu[i]!.push(t.cpuMs)
      wall[i]!.push(t.wallMs)
    }
    rounds++
  }
  const cpuMs = cpu.map((t) => Math.min(...t)) as [number, number, number]
  const wallMs = wall.map(median) as [number, number, number]
  return { sizes, cpuMs, wallMs, ratio: ratio(), rounds }
}

/**
 * Warms up (JIT, regex compilation) and doubles `options.n` until a run takes `minMs` in each of three timings (or
 * `maxN` stops it); returns that size and its input, already run. One timing under `minMs` settles a size: load only
 * ever adds time.
 */
function smallestMeasurableSize<T>(
  build: (size: number) => T,
  run: (input: T) => unknown,
  options: GrowthOptions,
): [number, T] {
  const minMs = options.minMs ?? 3
  const maxN = options.maxN ?? 100_000
  for (let n = Math.max(1, Math.floor(options.n)); ; n *= 2) {
    const input = build(n)
    run(input)
    if (n * 2 > maxN || [0, 1, 2].every(() => timeOnce(run, input, false).cpuMs >= minMs)) return [n, input]
  }
}

// Before each run the young generation is collected and the collector's helper threads are let finish: `gc()`
// returns while they still sweep, and `process.cpuUsage()` counts every thread, so without the wait a forced
// collection charged ~70 ms of their work to a 6 ms run (ratio 1.1 for a linear scan: a quadratic one could hide
// too); without any collection, one landing in the 4n runs only (a heap shared with other test files) made linear
// scans measure 9-12. The wait sleeps (Atomics.wait) in 2 ms steps until the process spends no CPU, at most 100 ms.
// A minor collection, not a full one: a run's garbage is young, and a full collection of a worker's heap (every
// module of every test file) cost more than the runs it prepared — 71 of 167 s in the complexity suites, against
// 3 s now, with the same spread of ratios (linear scans p50 3.6 -> 4.0, p90 5.0 -> 5.4).
const pause = new Int32Array(new SharedArrayBuffer(4))
const collectGarbage: () => void = (() => {
  try {
    v8.setFlagsFromString('--expose-gc')
    const gc = vm.runInNewContext('gc') as unknown
    return typeof gc === 'function' ? () => (gc as (options: { type: 'minor' }) => void)({ type: 'minor' }) : () => {}
  } catch {
    return () => {}
  }
})()

function settleHeap(): void {
  collectGarbage()
  for (let waited = 0; waited < 100; waited += 2) {
    const before = process.cpuUsage()
    Atomics.wait(pause, 0, 0, 2)
    const used = process.cpuUsage(before)
    if (used.user + used.system < 200) return
  }
}

function timeOnce<T>(run: (input: T) => unknown, input: T, settle: boolean): { cpuMs: number; wallMs: number } {
  if (settle) settleHeap()
  const cpu = process.cpuUsage()
  const start = performance.now()
  run(input)
  const wallMs = performance.now() - start
  const used = process.cpuUsage(cpu)
  return { cpuMs: (used.user + used.system) / 1000, wallMs }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/**
 * Texts anyone can post in a comment that make naive scans quadratic, each built at a given size (about that
 * many characters or repetitions). For complexity tests and the bench.
 */
export const ADVERSARIAL_TEXTS: Readonly<Record<string, (n: number) => string>> = {
  'url + closing parens': (n) => `see http://e.com/${')'.repeat(n)}`,
  'unclosed <!--': (n) => '<!--'.repeat(n),
  '#1 on one line': (n) => '#1 '.repeat(n),
  'GH-1 on one line': (n) => 'GH-1 '.repeat(n),
  'many URLs': (n) => 'http://e.com/a '.repeat(n),
  'many autolinks': (n) => '<http://e.com/'.repeat(n),
  'open brackets': (n) => '['.repeat(n),
  'link without close': (n) => `[a](http://e.com/${'(a)'.repeat(n)}`,
  // Image links never closed: every `](` starts a target that runs to the end of the text.
  'image links without close': (n) => '![]('.repeat(n),
  'links without close': (n) => '[a](b'.repeat(n),
  'link titles without close': (n) => '[a](b "'.repeat(n),
  'nested brackets': (n) => `${'['.repeat(n)}a${']'.repeat(n)}(${'('.repeat(n)}`,
  // What a crafted issue body mixes: brackets, unclosed comments and references on one line.
  'brackets, comments and references': (n) => '[<!--#1 ]('.repeat(n),
  'heading with spaces': (n) => `# a${' '.repeat(n)}b`,
  backticks: (n) => '`'.repeat(n),
  'fence without newline': (n) => `\r${'```\r'.repeat(n)}`,
  'spaces without newline': (n) => `a${' '.repeat(n)}b`,
  'unclosed tags': (n) => '<'.repeat(n),
  'unclosed <a': (n) => '<a href="x"'.repeat(n),
  'unclosed <pre>': (n) => '<pre>'.repeat(n),
  // One tag that never gets its attribute, or its `>`: a pattern walks the rest of the tag from every opener.
  'many <a openers in one tag': (n) => `${'<a '.repeat(n)}></a>`,
  'many href values in one tag': (n) => `${'<a href="x '.repeat(n)}></a>`,
  'unterminated attribute quotes': (n) => `${'<a href="'.repeat(n)}</a>`,
  'attribute values across lines': (n) => `${'<img src="\n'.repeat(n)}>`,
  'nested <': (n) => `${'<<<<a '.repeat(n)}>`,
  'unclosed <p': (n) => '<p'.repeat(n),
  'unclosed <pre><code': (n) => '<pre><code'.repeat(n),
  'trailing slashes': (n) => `https://github.com/o/r/issues/1${'/'.repeat(n)}x`,
  'escape sequences': (n) => '\u001b['.repeat(n),
  'unterminated OSC': (n) => '\u001b]0;'.repeat(n),
}

/**
 * A hostile input of exactly `bytes` characters (bytes, for these ASCII texts): `input` is a builder as in
 * `ADVERSARIAL_TEXTS`, or the name of one there. Built from enough repetitions and cut at `bytes`.
 */
export function sizedText(input: string | ((n: number) => string), bytes: number): string {
  const build = typeof input === 'string' ? ADVERSARIAL_TEXTS[input] : input
  if (!build) throw new Error(`sizedText: no adversarial text named ${JSON.stringify(input)}`)
  return build(Math.ceil(bytes / build(1).length)).slice(0, bytes)
}
