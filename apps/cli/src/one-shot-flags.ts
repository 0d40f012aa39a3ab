import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/**
 * V8 flags of a process that runs one command and exits. Set before the command's code is compiled when it comes
 * from the code cache (V8 accepts a cache only under the flags it was made with), and again by `one-shot.ts`.
 *
 * `--liftoff-only`: undici parses HTTP with a WebAssembly build of llhttp (page fetches here; provider calls use
 * node:http in this bundle). V8 first compiles it with its baseline compiler, then recompiles the hot parser
 * functions with its optimising compiler on a worker thread, and a process cannot exit until that job is done:
 * 70–90 ms after the output was written (measured; the optimised code is never used by a process about to exit).
 * Baseline code is enough.
 *
 * `--expose-gc`: lets `collectYoungGeneration` (below) have a context's `gc` function.
 */
export function useOneShotV8Flags(): void {
  setFlagsFromString('--liftoff-only --expose-gc')
}

type Collect = (options: { type: 'minor' }) => void
let collect: Collect | undefined

/**
 * Collects the young generation now. A search calls it once its requests are out: the answers are then a round trip
 * away and the process idle, and a search's start-up leaves the young generation nearly full, so the burst of
 * answers would otherwise bring a scavenge of 3–6 ms on the way to the output (measured with --trace-gc: the
 * seventh and last scavenge of a deep search, ~15 ms after its first answer). Does nothing where `gc` is not exposed.
 */
export function collectYoungGeneration(): void {
  // A new context gets `gc` under --expose-gc, even when the flag came after this one was made.
  collect ??= runInNewContext("typeof gc === 'function' ? gc : () => {}") as Collect
  collect({ type: 'minor' })
}
