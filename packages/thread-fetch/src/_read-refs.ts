import { type ExtractRefsOptions, findRefs } from './refs.js'
import type { Ref } from './types.js'

/**
 * A thread's reference occurrences past this many are not read: each text is bounded (`MAX_REFS_PER_TEXT`), but
 * a thread has up to 1,000 comments, and a million occurrences would cost seconds to find and merge.
 */
export const MAX_REFS_PER_THREAD = 10_000

/**
 * Reading one text is bounded, not free (1 MiB: 30-90 ms); the event loop gets a turn before a text would take
 * the time since the last turn past this, so health checks and other requests are answered while a long
 * thread is read.
 */
const SLICE_MS = 20
/** What reading a text costs per character, about (ms): 1 MiB of the costliest inputs, 50-90 ms. */
const MS_PER_CHAR = 80 / (1 << 20)

// Readers share one queue of turns: readers resuming in the same turn of the loop would run their texts back to
// back (three threads read at once held it 190-225 ms), so each waits for a turn of its own.
let lastTurn: Promise<void> = Promise.resolve()

/** Resolves in a later turn of the event loop than any turn already handed out. */
function nextTurn(): Promise<void> {
  const turn = lastTurn.then(() => new Promise<void>((resolve) => setImmediate(resolve)))
  lastTurn = turn
  return turn
}

/** One text of a thread and how to read its references. */
export interface RefSource {
  text: string
  options: ExtractRefsOptions
}

/**
 * `findRefs` over a thread's texts in order, giving the event loop a turn between texts about every `SLICE_MS`,
 * and stopping once `MAX_REFS_PER_THREAD` occurrences are found.
 */
export async function readRefs(sources: Iterable<RefSource>): Promise<Ref[]> {
  const found: Ref[] = []
  let sliceStart = performance.now()
  for (const { text, options } of sources) {
    if (found.length >= MAX_REFS_PER_THREAD) break
    // A long text waits for a turn first, so the loop waits for that one text at most, not for it and a slice.
    if (performance.now() - sliceStart + text.length * MS_PER_CHAR > SLICE_MS) {
      await nextTurn()
      sliceStart = performance.now()
    }
    for (const ref of findRefs(text, options)) found.push(ref)
  }
  return found.slice(0, MAX_REFS_PER_THREAD)
}

/** `map` that gives the event loop a turn every `SLICE_MS`, for per-item work on lists of thousands. */
export async function mapYielding<T, R>(items: readonly T[], map: (item: T) => R): Promise<R[]> {
  const out: R[] = []
  let sliceStart = performance.now()
  for (const item of items) {
    out.push(map(item))
    if (performance.now() - sliceStart >= SLICE_MS) {
      await nextTurn()
      sliceStart = performance.now()
    }
  }
  return out
}
