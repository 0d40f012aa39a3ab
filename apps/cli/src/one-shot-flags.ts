import { setFlagsFromString } from 'node:v8'

/**
 * V8 flags of a process that runs one command and exits. Set before the command's code is compiled when it comes
 * from the code cache (V8 accepts a cache only under the flags it was made with), and again by `one-shot.ts`.
 *
 * undici parses HTTP with a WebAssembly build of llhttp (page fetches here; provider calls use node:http in this
 * bundle). V8 first compiles it with its baseline compiler, then recompiles the hot parser functions with its
 * optimising compiler on a worker thread, and a process cannot exit until that job is done: 70–90 ms after the
 * output was written (measured; the optimised code is never used by a process about to exit). Baseline code is
 * enough.
 */
export function useOneShotV8Flags(): void {
  setFlagsFromString('--liftoff-only')
}
