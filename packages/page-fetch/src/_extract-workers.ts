// The worker side of the extraction pool's life: where the worker script comes from, spawning a worker with its heap
// limit, its `ready` handshake, handing it one job at a time, stopping it when idle, and noticing when it crashes or
// is killed. What a job is, and how long it may take, is the pool's business (extract-pool.ts, _extract-job.ts);
// this file sees a job only as the thing a worker holds.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { sourceWorkerBundle } from './_source-worker.js'
import type { FetchErrorKind } from './errors.js'
import type { ExtractJobMessage, ExtractReply, PdfJobMessage } from './extract-worker.js'

/** One worker and the job it holds, if any. */
export interface WorkerSlot<J> {
  worker: Worker
  /** Set when the worker's modules have loaded (its `{ ready: true }` message, or any reply). */
  ready: boolean
  job?: J
  idleTimer?: NodeJS.Timeout
}

/** What the workers tell their pool. */
export interface WorkerEvents<J> {
  /** The worker of `slot` has loaded its modules (a job it holds may start its clock). */
  ready(slot: WorkerSlot<J>): void
  /** The worker of `slot` answered a job. */
  reply(slot: WorkerSlot<J>, reply: ExtractReply): void
  /** The worker holding `job` crashed, ran out of memory or exited; its slot is already gone. */
  lost(job: J, why: string, kind: FetchErrorKind): void
  /** A worker became free or went away: queued jobs may move. */
  freed(): void
}

/** The sizes and times of the workers. */
export interface WorkerSetOptions {
  size: number
  maxHeapMb: number
  idleMs: number
  workerUrl?: URL
}

/** The worker's first message, once its modules have loaded (see extract-worker.ts). */
interface WorkerReady {
  ready: true
}

const DEFAULT_WORKER_URL = new URL('./extract-worker.js', import.meta.url)

/** Up to `size` extraction workers: started on demand, one job each at a time, stopped when idle or broken. */
export class ExtractWorkers<J> {
  private readonly slots = new Set<WorkerSlot<J>>()

  constructor(
    private readonly options: WorkerSetOptions,
    private readonly events: WorkerEvents<J>,
  ) {}

  /** Whether a worker script exists to start (a bundle may have left it out). */
  available(): boolean {
    return workerScript(this.options.workerUrl) !== undefined
  }

  /** A worker without a job: an idle one, or a new one while there are fewer than `size`; else undefined. */
  free(): WorkerSlot<J> | undefined {
    for (const slot of this.slots) if (!slot.job) return slot
    return this.slots.size < this.options.size ? this.spawn() : undefined
  }

  /** Hands `job` to the worker of `slot`. */
  assign(slot: WorkerSlot<J>, job: J, message: ExtractJobMessage | PdfJobMessage): void {
    clearTimeout(slot.idleTimer)
    slot.job = job
    // Referenced while busy: a pending job must keep a CLI process alive.
    slot.worker.ref()
    slot.worker.postMessage(message)
  }

  /** The worker of `slot` is done with its job: idle, and stopped after `idleMs` unless used. */
  release(slot: WorkerSlot<J>): void {
    slot.job = undefined
    this.idle(slot)
    this.events.freed()
  }

  /** Starts workers up to `size` before any job needs them, each stopped after `idleMs` unless used. */
  warm(): void {
    while (this.slots.size < this.options.size) this.idle(this.spawn())
  }

  /** Unref'd (an idle worker keeps no process alive) and stopped after `idleMs` unless given a job. */
  private idle(slot: WorkerSlot<J>): void {
    slot.worker.unref()
    clearTimeout(slot.idleTimer)
    slot.idleTimer = setTimeout(() => this.retire(slot), this.options.idleMs)
    slot.idleTimer.unref()
  }

  /** Stops the worker of `slot` (the only way to interrupt it) and forgets it; its job, if any, is the caller's. */
  retire(slot: WorkerSlot<J>): void {
    if (!this.slots.delete(slot)) return
    clearTimeout(slot.idleTimer)
    slot.job = undefined
    void slot.worker.terminate()
    this.events.freed()
  }

  /** Stops every worker; returns the jobs they held. */
  async stopAll(): Promise<J[]> {
    const running = [...this.slots]
    const held: J[] = []
    for (const slot of running) {
      if (slot.job) held.push(slot.job)
      this.retire(slot)
    }
    await Promise.all(running.map((slot) => slot.worker.terminate()))
    return held
  }

  private spawn(): WorkerSlot<J> {
    const script = workerScript(this.options.workerUrl) as URL
    const { maxHeapMb } = this.options
    const worker = new Worker(script, {
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: Math.min(32, maxHeapMb / 4) },
    })
    const slot: WorkerSlot<J> = { worker, ready: false }
    worker.unref()
    worker.on('message', (reply: ExtractReply | WorkerReady) => {
      slot.ready = true
      if ('ready' in reply) this.events.ready(slot)
      else this.events.reply(slot, reply)
    })
    // 'error' (out of memory, a crash) is followed by 'exit'; the job is settled once, the slot replaced on demand.
    worker.on('error', (error: Error & { code?: string }) => {
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY'
      const why = outOfMemory
        ? `ran out of memory (worker heap limit ${maxHeapMb} MB)`
        : `failed: ${error.message.slice(0, 200)}`
      this.lose(slot, why, outOfMemory ? 'too_large' : 'unreadable')
    })
    worker.on('exit', () => this.lose(slot, 'stopped unexpectedly', 'unreadable'))
    this.slots.add(slot)
    return slot
  }

  private lose(slot: WorkerSlot<J>, why: string, kind: FetchErrorKind): void {
    const job = slot.job
    this.retire(slot)
    if (job) this.events.lost(job, why, kind)
  }
}

/**
 * Where the worker comes from: the built `extract-worker.js` beside this module, or, when this module runs from its
 * TypeScript source (the workspace's tests), the `.ts` worker bundled from the sources (_source-worker.ts), so tests
 * never need a build.
 */
function workerScript(url: URL = DEFAULT_WORKER_URL): URL | undefined {
  if (existsSync(fileURLToPath(url))) return url
  if (!import.meta.url.endsWith('.ts')) return undefined
  const source = new URL(url.href.replace(/\.js$/, '.ts'))
  return existsSync(fileURLToPath(source)) ? sourceWorkerBundle(source) : undefined
}
