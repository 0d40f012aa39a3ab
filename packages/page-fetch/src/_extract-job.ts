// A job of the extraction pool and its clock: how long it may take (a worker's start-up not counted), how it
// ends when cancelled, and the last-resort plain-text read on the calling thread. Which worker runs it is
// _extract-workers.ts's business; the queue that orders jobs is extract-pool.ts's.
import type { WorkerSlot } from './_extract-workers.js'
import { FetchError } from './errors.js'
import type { ExtractJobMessage, PdfJobMessage } from './extract-worker.js'
import type { ReadablePage } from './page.js'
import { plainPageFromBody } from './page-from-body.js'

/** A page (or PDF) to read, its caller's promise, and its running time limit. */
export interface Job {
  id: number
  message: ExtractJobMessage | PdfJobMessage
  resolve(page: ReadablePage): void
  reject(error: unknown): void
  slot?: WorkerSlot<Job>
  done: boolean
  /**
   * The running time limit: the job's, then the plain-text read's. Its clock stops while the job waits for its
   * worker to start: a cold worker loads its modules first (a second or more on a loaded machine, where a 10 s
   * page deadline once ran out before any page was read), and a page is charged only for its own time.
   */
  clock: JobClock
  cleanup(): void
}

/** A time limit that can be paused: it runs while the job is queued or read, not while its worker starts. */
export interface JobClock {
  /** Time left (ms) as of `since` (or now, while stopped). */
  leftMs: number
  since?: number
  timer?: NodeJS.Timeout
  /** What happens when the time is up. */
  expire(): void
}

/** A stopped clock with `leftMs` to run, calling `expire` when they are used up. */
export function jobClock(leftMs: number, expire: () => void): JobClock {
  return { leftMs, expire }
}

export function startClock(clock: JobClock): void {
  if (clock.timer !== undefined) return
  clock.since = Date.now()
  clock.timer = setTimeout(() => {
    clock.timer = undefined
    clock.leftMs = 0
    clock.expire()
  }, clock.leftMs)
}

export function stopClock(clock: JobClock): void {
  if (clock.timer === undefined) return
  clearTimeout(clock.timer)
  clock.timer = undefined
  clock.leftMs = Math.max(0, clock.leftMs - (Date.now() - (clock.since ?? Date.now())))
}

/** Settles `job` once: stops its clock, lets go of its caller's signal, then `settle`s. */
export function finishJob(job: Job, settle: () => void): void {
  if (job.done) return
  job.done = true
  job.cleanup()
  settle()
}

export const count = (n: number) => n.toLocaleString('en-US')

export function cancelled(url: string, signal: AbortSignal): FetchError {
  return new FetchError(`reading ${url.slice(0, 200)} was cancelled`, {
    kind: 'timeout',
    url,
    retryable: false,
    cause: signal.reason,
  })
}

export function stoppedByClose(url: string): FetchError {
  return new FetchError('reading the page was stopped: the extraction pool closed', {
    kind: 'timeout',
    url,
    retryable: false,
  })
}

/** What the calling thread reads of a body, at most, when not even a worker could read it as plain text. */
const INLINE_FALLBACK_CHARS = 131_072

/**
 * The last resort, on the calling thread: the body as plain text (linear scans), from its first
 * `INLINE_FALLBACK_CHARS` characters when it is longer, so this takes milliseconds whatever the body.
 */
export function inlinePlainPage(message: ExtractJobMessage, reason: string, plainFailure: string): ReadablePage {
  const { text, contentType, options } = message
  if (text.length <= INLINE_FALLBACK_CHARS) return plainPageFromBody(text, contentType, options, reason)
  // A cut between the halves of a surrogate pair would leave a lone half in the text.
  const high = text.charCodeAt(INLINE_FALLBACK_CHARS - 1)
  const cut = high >= 0xd800 && high <= 0xdbff ? INLINE_FALLBACK_CHARS - 1 : INLINE_FALLBACK_CHARS
  const why = `${reason}; text from the first ${count(cut)} of ${count(text.length)} characters only (reading it all as text ${plainFailure})`
  return plainPageFromBody(text.slice(0, cut), contentType, options, why)
}
