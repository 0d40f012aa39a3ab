/**
 * Runs `pageFromBody` in worker threads so that no page, however deep or large, blocks the event loop. Each job has
 * a time limit (the caller's deadline; a worker's start-up is not charged to it, see `Job`) and each worker a heap
 * limit; a worker that overruns either is terminated and
 * replaced, and its job degrades to plain text, read by a worker too, within `fallbackTimeoutMs`. Should that fail
 * as well, the calling thread reads the body's first 131,072 characters as text (a linear scan: milliseconds), so
 * no page holds the calling thread however large. A caller's abort rejects with `FetchError` `timeout`. Workers
 * start on first use and are unref'd while idle, so a CLI exits when done.
 *
 * Fast path and fallback: when the worker file cannot be found (a bundle that left it out), jobs run on the calling
 * thread, still bounded by `extractReadable`'s pre-scan limits, and a warning is emitted once.
 *
 * This file holds the public API and the queue; the workers' life (spawn, `ready`, idle, crash) is in
 * _extract-workers.ts, a job's clock and last-resort read in _extract-job.ts.
 */
import { availableParallelism } from 'node:os'
import {
  type Job,
  cancelled,
  count,
  finishJob,
  inlinePlainPage,
  jobClock,
  startClock,
  stopClock,
  stoppedByClose,
} from './_extract-job.js'
import { ExtractWorkers, type WorkerSlot } from './_extract-workers.js'
import type { PdfReadOptions } from './_pdf-read.js'
import { FetchError, type FetchErrorKind } from './errors.js'
import type { ExtractReadableOptions } from './extract.js'
import type { ExtractJobMessage, ExtractReply, PdfJobMessage } from './extract-worker.js'
import type { ReadablePage } from './page.js'
import { pageFromBody } from './page-from-body.js'

/** Options of `createExtractPool`. */
export interface ExtractPoolOptions {
  /** Workers at most. Default: 2, or 1 on a single-core machine. */
  size?: number
  /** Heap of each worker (V8 old generation, MB); a page that needs more degrades to plain text. Default 256. */
  maxHeapMb?: number
  /**
   * Time limit of a job when the caller gives none (ms): queueing included, a worker's start-up (loading its
   * modules: about a second on a loaded machine) not. Default 10 000.
   */
  timeoutMs?: number
  /**
   * Time limit of the plain-text read that replaces a job that ran out of time or memory (ms), queueing included,
   * the replacement worker's start-up not. Past it, the calling thread reads the body's first 131,072 characters
   * only. Default 2 000.
   */
  fallbackTimeoutMs?: number
  /** An idle worker is stopped after this long (ms) to give its memory back. Default 30 000. */
  idleMs?: number
  /** The worker script; default `extract-worker.js` beside this module (the package's dist, or a bundle's). */
  workerUrl?: URL
}

/** Per-job options: what the page is, and when to give up on reading it. */
export interface ExtractJobOptions extends ExtractReadableOptions {
  /** Rejects the job with `FetchError` `timeout` (not retryable) when aborted. */
  signal?: AbortSignal
  /**
   * Past this (ms from the call, a worker's start-up not counted), the job degrades to plain text. Default: the
   * pool's `timeoutMs`.
   */
  timeoutMs?: number
}

/** Per-job options of a PDF: what the document is, how many pages to read, and when to give up. */
export interface PdfJobOptions extends PdfReadOptions {
  /** Rejects the job with `FetchError` `timeout` (not retryable) when aborted. */
  signal?: AbortSignal
  /**
   * Past this (ms from the call, a worker's start-up not counted), the job fails with `FetchError` `timeout`.
   * Default: the pool's `timeoutMs`.
   */
  timeoutMs?: number
}

/** A pool of extraction workers. */
export interface ExtractPool {
  /**
   * `pageFromBody` off the calling thread. Resolves with the page, or with its plain-text degradation (`degraded`
   * set) when the job runs out of time or memory; rejects only with `FetchError` `timeout` when `signal` aborts.
   */
  pageFromBody(text: string, contentType: string, options: ExtractJobOptions): Promise<ReadablePage>
  /**
   * `pageFromPdf` in a worker (pdf.js is loaded there, on the first PDF). A PDF has no plain-text fallback, so
   * running out of time rejects with `FetchError` `timeout`, out of memory with `too_large`, a broken or
   * encrypted document with `unreadable`, one without a text layer with `empty`.
   */
  pageFromPdf(bytes: Uint8Array, options: PdfJobOptions): Promise<ReadablePage>
  /**
   * Starts the workers now, so that the first page does not wait while one loads its modules (a few hundred ms,
   * more on a loaded machine): call it when pages are about to be read, e.g. as a search that reads begins. Workers
   * not given a page stop after `idleMs`. Does nothing where no worker can start.
   */
  warm(): void
  /** Stops every worker; pending jobs reject with `FetchError` `timeout`. The pool starts again if used. */
  close(): Promise<void>
}

let warnedInline = false

/** Creates a pool of extraction workers (lazy: none start before the first job). */
export function createExtractPool(options: ExtractPoolOptions = {}): ExtractPool {
  return new WorkerExtractPool(options)
}

/** The pool behind `createExtractPool`: a queue of jobs, their clocks, and the degrade path for failed reads. */
class WorkerExtractPool implements ExtractPool {
  private readonly defaultTimeoutMs: number
  private readonly fallbackTimeoutMs: number
  private readonly workers: ExtractWorkers<Job>
  private readonly queue: Job[] = []
  private nextId = 1
  private spawnable: boolean | undefined

  constructor(options: ExtractPoolOptions) {
    this.defaultTimeoutMs = options.timeoutMs ?? 10_000
    this.fallbackTimeoutMs = Math.max(0, options.fallbackTimeoutMs ?? 2000)
    this.workers = new ExtractWorkers<Job>(
      {
        size: Math.max(1, Math.floor(options.size ?? Math.min(2, availableParallelism()))),
        maxHeapMb: options.maxHeapMb ?? 256,
        idleMs: options.idleMs ?? 30_000,
        ...(options.workerUrl && { workerUrl: options.workerUrl }),
      },
      {
        ready: (slot) => this.onReady(slot),
        reply: (slot, reply) => this.onReply(slot, reply),
        lost: (job, why, kind) => this.failed(job, why, kind),
        freed: () => this.pump(),
      },
    )
  }

  pageFromBody(text: string, contentType: string, jobOptions: ExtractJobOptions): Promise<ReadablePage> {
    const { signal, timeoutMs, ...readOptions } = jobOptions
    if (signal?.aborted) return Promise.reject(cancelled(readOptions.url, signal))
    if (!this.canSpawn()) return Promise.resolve(pageFromBody(text, contentType, readOptions))
    return this.enqueue((id) => ({ id, text, contentType, options: readOptions }), signal, timeoutMs)
  }

  pageFromPdf(bytes: Uint8Array, jobOptions: PdfJobOptions): Promise<ReadablePage> {
    const { signal, timeoutMs, ...readOptions } = jobOptions
    if (signal?.aborted) return Promise.reject(cancelled(readOptions.url, signal))
    // pdf.js on the calling thread could hold it for as long as a hostile document likes: no worker, no PDF.
    if (!this.canSpawn())
      return Promise.reject(
        new FetchError('reading a PDF needs the extraction worker, and extract-worker.js was not found', {
          kind: 'unsupported_type',
          url: readOptions.url,
        }),
      )
    return this.enqueue((id) => ({ id, pdf: bytes, options: readOptions }), signal, timeoutMs)
  }

  warm(): void {
    if (this.canSpawn()) this.workers.warm()
  }

  async close(): Promise<void> {
    const stopped = (job: Job) => () => job.reject(stoppedByClose(job.message.options.url))
    for (const job of this.queue.splice(0)) finishJob(job, stopped(job))
    for (const job of await this.workers.stopAll()) finishJob(job, stopped(job))
  }

  /** Queues a job with its time limit and its caller's signal. */
  private enqueue(
    build: (id: number) => ExtractJobMessage | PdfJobMessage,
    signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
  ): Promise<ReadablePage> {
    const limitMs = Math.max(0, timeoutMs ?? this.defaultTimeoutMs)
    return new Promise<ReadablePage>((resolve, reject) => {
      const id = this.nextId++
      const message = build(id)
      const job: Job = {
        id,
        message,
        resolve,
        reject,
        done: false,
        clock: jobClock(limitMs, () => {
          this.stop(job)
          this.failed(job, `did not finish within ${count(limitMs)} ms`, 'timeout')
        }),
        cleanup: () => {
          stopClock(job.clock)
          signal?.removeEventListener('abort', onAbort)
        },
      }
      const onAbort = () => {
        this.stop(job)
        finishJob(job, () => reject(cancelled(message.options.url, signal as AbortSignal)))
      }
      startClock(job.clock)
      signal?.addEventListener('abort', onAbort, { once: true })
      this.queue.push(job)
      this.pump()
    })
  }

  private canSpawn(): boolean {
    this.spawnable ??= this.workers.available()
    if (!this.spawnable && !warnedInline) {
      warnedInline = true
      process.emitWarning(
        'page-fetch: extract-worker.js was not found beside the bundle; readable extraction runs on the main thread',
      )
    }
    return this.spawnable
  }

  /** The worker has loaded its modules: the clock of the job waiting for it runs again. */
  private onReady(slot: WorkerSlot<Job>): void {
    if (slot.job && !slot.job.done) startClock(slot.job.clock)
  }

  private onReply(slot: WorkerSlot<Job>, reply: ExtractReply): void {
    const job = slot.job
    if (!job || job.id !== reply.id) return
    job.slot = undefined
    this.workers.release(slot)
    if (reply.page) finishJob(job, () => job.resolve(reply.page as ReadablePage))
    else if (reply.failure) this.failed(job, reply.failure.message, reply.failure.kind, true)
    else this.failed(job, `failed: ${reply.error ?? 'unknown error'}`, 'unreadable')
  }

  /** Hands queued jobs to free workers; a job waiting for its worker to start has its clock stopped. */
  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.workers.free()
      if (!slot) return
      const job = this.queue.shift() as Job
      if (job.done) continue
      job.slot = slot
      if (!slot.ready) stopClock(job.clock)
      this.workers.assign(slot, job, job.message)
    }
  }

  /**
   * A job that failed: a text job degrades to plain text, a PDF job rejects with `FetchError` of `kind`
   * (`failure` is the whole message when `complete`, else it follows "reading the PDF").
   */
  private failed(job: Job, failure: string, kind: FetchErrorKind, complete = false): void {
    if (!('pdf' in job.message)) {
      this.degrade(job, failure)
      return
    }
    const { url } = job.message.options
    const message = complete ? failure : `reading the PDF ${url.slice(0, 200)} ${failure}`
    finishJob(job, () => job.reject(new FetchError(message, { kind, url })))
  }

  /**
   * A job whose read `failure` ("did not finish within 10 ms", "ran out of memory …"): queued again, first in
   * line, for a worker to read as plain text within `fallbackTimeoutMs`; when that read fails too, settled from
   * the body's start on this thread. `degraded` says what failed, the readable read first.
   */
  private degrade(job: Job, failure: string): void {
    const message = job.message
    if (job.done || 'pdf' in message) return
    const first = message.degradeReason
    if (first !== undefined) {
      finishJob(job, () => job.resolve(inlinePlainPage(message, first, failure)))
      return
    }
    stopClock(job.clock)
    job.id = this.nextId++
    job.message = { ...message, id: job.id, degradeReason: `readable extraction ${failure}` }
    job.clock = jobClock(this.fallbackTimeoutMs, () => {
      this.stop(job)
      this.degrade(job, `did not finish within ${count(this.fallbackTimeoutMs)} ms`)
    })
    startClock(job.clock)
    this.queue.unshift(job)
    this.pump()
  }

  /** Stops the job's worker, if it has one (a worker cannot be interrupted otherwise). */
  private stop(job: Job): void {
    const slot = job.slot
    job.slot = undefined
    if (slot && slot.job === job) this.workers.retire(slot)
  }
}

let shared: ExtractPool | undefined

/** The process-wide pool `fetchPage` uses (created on first use with default options). */
export function sharedExtractPool(): ExtractPool {
  shared ??= createExtractPool()
  return shared
}

/** Stops the process-wide pool's workers (graceful shutdown); it starts again if used. */
export async function closeSharedExtractPool(): Promise<void> {
  const pool = shared
  shared = undefined
  await pool?.close()
}
