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
 */
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { FetchError, type FetchErrorKind } from './errors.js'
import type { ExtractReadableOptions } from './extract.js'
import type { ExtractJobMessage, ExtractReply, PdfJobMessage } from './extract-worker.js'
import type { ReadablePage } from './page.js'
import { pageFromBody, plainPageFromBody } from './page-from-body.js'
import type { PdfReadOptions } from './_pdf-read.js'

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
  /** Stops every worker; pending jobs reject with `FetchError` `timeout`. The pool starts again if used. */
  close(): Promise<void>
}

interface Job {
  id: number
  message: ExtractJobMessage | PdfJobMessage
  resolve(page: ReadablePage): void
  reject(error: unknown): void
  slot?: Slot
  done: boolean
  /**
   * The running time limit: the job's, then the plain-text read's. Its clock stops while the job waits for its
   * worker to start: a cold worker loads its modules first (a second or more on a loaded machine, where a 10 s
   * page deadline once ran out before any page was read), and a page is charged only for its own time.
   */
  clock: JobClock
  cleanup(): void
}

interface JobClock {
  /** Time left (ms) as of `since` (or now, while stopped). */
  leftMs: number
  since?: number
  timer?: NodeJS.Timeout
  /** What happens when the time is up. */
  expire(): void
}

interface Slot {
  worker: Worker
  /** Set when the worker's modules have loaded (its `{ ready: true }` message, or any reply). */
  ready: boolean
  job?: Job
  idleTimer?: NodeJS.Timeout
}

const DEFAULT_WORKER_URL = new URL('./extract-worker.js', import.meta.url)

/** What the calling thread reads of a body, at most, when not even a worker could read it as plain text. */
const INLINE_FALLBACK_CHARS = 131_072

let warnedInline = false

/** Creates a pool of extraction workers (lazy: none start before the first job). */
export function createExtractPool(options: ExtractPoolOptions = {}): ExtractPool {
  return new WorkerExtractPool(options)
}

/** The pool behind `createExtractPool`: slots of workers, a queue of jobs, and the degrade path for failed reads. */
class WorkerExtractPool implements ExtractPool {
  private readonly size: number
  private readonly maxHeapMb: number
  private readonly defaultTimeoutMs: number
  private readonly fallbackTimeoutMs: number
  private readonly idleMs: number
  private readonly slots = new Set<Slot>()
  private readonly queue: Job[] = []
  private nextId = 1
  private spawnable: boolean | undefined

  constructor(private readonly options: ExtractPoolOptions) {
    this.size = Math.max(1, Math.floor(options.size ?? Math.min(2, availableParallelism())))
    this.maxHeapMb = options.maxHeapMb ?? 256
    this.defaultTimeoutMs = options.timeoutMs ?? 10_000
    this.fallbackTimeoutMs = Math.max(0, options.fallbackTimeoutMs ?? 2000)
    this.idleMs = options.idleMs ?? 30_000
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
        clock: {
          leftMs: limitMs,
          expire: () => {
            this.stop(job)
            this.failed(job, `did not finish within ${count(limitMs)} ms`, 'timeout')
          },
        },
        cleanup: () => {
          stopClock(job.clock)
          signal?.removeEventListener('abort', onAbort)
        },
      }
      const onAbort = () => this.abandon(job, () => reject(cancelled(message.options.url, signal as AbortSignal)))
      startClock(job.clock)
      signal?.addEventListener('abort', onAbort, { once: true })
      this.queue.push(job)
      this.pump()
    })
  }

  async close(): Promise<void> {
    const stopped = (job: Job) => () =>
      job.reject(
        new FetchError('reading the page was stopped: the extraction pool closed', {
          kind: 'timeout',
          url: job.message.options.url,
          retryable: false,
        }),
      )
    for (const job of this.queue.splice(0)) this.finish(job, stopped(job))
    const running = [...this.slots]
    for (const slot of running) {
      const job = slot.job
      this.retire(slot)
      if (job) this.finish(job, stopped(job))
    }
    await Promise.all(running.map((slot) => slot.worker.terminate()))
  }

  private canSpawn(): boolean {
    this.spawnable ??= workerScript(this.options.workerUrl) !== undefined
    if (!this.spawnable && !warnedInline) {
      warnedInline = true
      process.emitWarning(
        'page-fetch: extract-worker.js was not found beside the bundle; readable extraction runs on the main thread',
      )
    }
    return this.spawnable
  }

  private spawn(): Slot {
    const script = workerScript(this.options.workerUrl) as WorkerScript
    const maxHeapMb = this.maxHeapMb
    const worker = new Worker(script.source, {
      eval: script.eval,
      ...(script.execArgv && { execArgv: script.execArgv }),
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: Math.min(32, maxHeapMb / 4) },
    })
    const slot: Slot = { worker, ready: false }
    worker.unref()
    worker.on('message', (reply: ExtractReply | WorkerReady) => {
      if ('ready' in reply) this.onReady(slot)
      else this.onReply(slot, reply)
    })
    // 'error' (out of memory, a crash) is followed by 'exit'; the job is settled once, the slot replaced on demand.
    worker.on('error', (error: Error & { code?: string }) => {
      const job = slot.job
      this.retire(slot)
      if (!job) return
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY'
      const why = outOfMemory
        ? `ran out of memory (worker heap limit ${maxHeapMb} MB)`
        : `failed: ${error.message.slice(0, 200)}`
      this.failed(job, why, outOfMemory ? 'too_large' : 'unreadable')
    })
    worker.on('exit', () => {
      const job = slot.job
      this.retire(slot)
      if (job) this.failed(job, 'stopped unexpectedly', 'unreadable')
    })
    this.slots.add(slot)
    return slot
  }

  /** The worker has loaded its modules: the clock of the job waiting for it runs again. */
  private onReady(slot: Slot): void {
    slot.ready = true
    if (slot.job && !slot.job.done) startClock(slot.job.clock)
  }

  private onReply(slot: Slot, reply: ExtractReply): void {
    slot.ready = true
    const job = slot.job
    if (!job || job.id !== reply.id) return
    this.release(slot)
    job.slot = undefined
    if (reply.page) this.finish(job, () => job.resolve(reply.page as ReadablePage))
    else if (reply.failure) this.failed(job, reply.failure.message, reply.failure.kind, true)
    else this.failed(job, `failed: ${reply.error ?? 'unknown error'}`, 'unreadable')
  }

  private retire(slot: Slot): void {
    if (!this.slots.delete(slot)) return
    clearTimeout(slot.idleTimer)
    slot.job = undefined
    void slot.worker.terminate()
    this.pump()
  }

  private release(slot: Slot): void {
    slot.job = undefined
    slot.worker.unref()
    clearTimeout(slot.idleTimer)
    slot.idleTimer = setTimeout(() => this.retire(slot), this.idleMs)
    slot.idleTimer.unref()
    this.pump()
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = [...this.slots].find((s) => !s.job)
      if (!slot && this.slots.size < this.size) slot = this.spawn()
      if (!slot) return
      const job = this.queue.shift() as Job
      if (job.done) continue
      clearTimeout(slot.idleTimer)
      slot.job = job
      job.slot = slot
      if (!slot.ready) stopClock(job.clock)
      // Referenced while busy: a pending job must keep a CLI process alive.
      slot.worker.ref()
      slot.worker.postMessage(job.message)
    }
  }

  private finish(job: Job, settle: () => void): void {
    if (job.done) return
    job.done = true
    job.cleanup()
    settle()
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
    this.finish(job, () => job.reject(new FetchError(message, { kind, url })))
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
      this.finish(job, () => job.resolve(inlinePlainPage(message, first, failure)))
      return
    }
    const reason = `readable extraction ${failure}`
    stopClock(job.clock)
    job.id = this.nextId++
    job.message = { ...message, id: job.id, degradeReason: reason }
    job.clock = {
      leftMs: this.fallbackTimeoutMs,
      expire: () => {
        this.stop(job)
        this.degrade(job, `did not finish within ${count(this.fallbackTimeoutMs)} ms`)
      },
    }
    startClock(job.clock)
    this.queue.unshift(job)
    this.pump()
  }

  /** Stops the job's worker, if it has one (a worker cannot be interrupted otherwise). */
  private stop(job: Job): void {
    const slot = job.slot
    job.slot = undefined
    if (slot && slot.job === job) this.retire(slot)
  }

  /** Stops the job's worker and settles the job. */
  private abandon(job: Job, settle: () => void): void {
    this.stop(job)
    this.finish(job, settle)
  }
}

const count = (n: number) => n.toLocaleString('en-US')

/** The worker's first message, once its modules have loaded (see extract-worker.ts). */
interface WorkerReady {
  ready: true
}

function startClock(clock: JobClock): void {
  if (clock.timer !== undefined) return
  clock.since = Date.now()
  clock.timer = setTimeout(() => {
    clock.timer = undefined
    clock.leftMs = 0
    clock.expire()
  }, clock.leftMs)
}

function stopClock(clock: JobClock): void {
  if (clock.timer === undefined) return
  clearTimeout(clock.timer)
  clock.timer = undefined
  clock.leftMs = Math.max(0, clock.leftMs - (Date.now() - (clock.since ?? Date.now())))
}

/**
 * The last resort, on the calling thread: the body as plain text (linear scans), from its first
 * `INLINE_FALLBACK_CHARS` characters when it is longer, so this takes milliseconds whatever the body.
 */
function inlinePlainPage(message: ExtractJobMessage, reason: string, plainFailure: string): ReadablePage {
  const { text, contentType, options } = message
  if (text.length <= INLINE_FALLBACK_CHARS) return plainPageFromBody(text, contentType, options, reason)
  // A cut between the halves of a surrogate pair would leave a lone half in the text.
  const high = text.charCodeAt(INLINE_FALLBACK_CHARS - 1)
  const cut = high >= 0xd800 && high <= 0xdbff ? INLINE_FALLBACK_CHARS - 1 : INLINE_FALLBACK_CHARS
  const why = `${reason}; text from the first ${count(cut)} of ${count(text.length)} characters only (reading it all as text ${plainFailure})`
  return plainPageFromBody(text.slice(0, cut), contentType, options, why)
}

function cancelled(url: string, signal: AbortSignal): FetchError {
  return new FetchError(`reading ${url.slice(0, 200)} was cancelled`, {
    kind: 'timeout',
    url,
    retryable: false,
    cause: signal.reason,
  })
}

interface WorkerScript {
  source: URL | string
  eval: boolean
  /** Node options of the worker: from sources, workspace imports resolve to sources too. */
  execArgv?: string[]
}

const scripts = new Map<string, WorkerScript | undefined>()

/**
 * Where the worker comes from: the built `extract-worker.js` beside this module, or, when this module runs from its
 * TypeScript source (the workspace's tests), the `.ts` worker through tsx's loader, so tests never need a build.
 */
function workerScript(url: URL = DEFAULT_WORKER_URL): WorkerScript | undefined {
  if (scripts.has(url.href)) return scripts.get(url.href)
  let script: WorkerScript | undefined
  const path = fileURLToPath(url)
  if (existsSync(path)) script = { source: url, eval: false }
  else if (import.meta.url.endsWith('.ts')) {
    const source = new URL(url.href.replace(/\.js$/, '.ts'))
    const tsx = tsxApiUrl()
    if (tsx && existsSync(fileURLToPath(source)))
      script = {
        source: `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source.href)}) })`,
        eval: true,
        // Without it the worker's `@search-layer/*` imports resolve to `dist/`, which a test run may not have built.
        execArgv: ['--conditions=@search-layer/source'],
      }
  }
  scripts.set(url.href, script)
  return script
}

function tsxApiUrl(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve('tsx/package.json')
    const exports = JSON.parse(readFileSync(manifest, 'utf8')).exports?.['./esm/api']?.import?.default
    return typeof exports === 'string' ? pathToFileURL(join(dirname(manifest), exports)).href : undefined
  } catch {
    return undefined
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
