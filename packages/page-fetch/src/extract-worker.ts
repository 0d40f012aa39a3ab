// The worker side of `ExtractPool`: runs `pageFromBody` for each job it is sent (`plainPageFromBody` for a job
// being degraded) and posts the page back.
// Loaded by `new Worker(...)` only; importing it elsewhere does nothing.
import { parentPort } from 'node:worker_threads'
import type { ExtractReadableOptions } from './extract.js'
import { pageFromBody, plainPageFromBody } from './page-from-body.js'

/** A job sent to the worker. */
export interface ExtractJobMessage {
  id: number
  text: string
  contentType: string
  options: ExtractReadableOptions
  /** Set when the job is read as plain text instead: why it could not be read readably. */
  degradeReason?: string
}

parentPort?.on('message', (job: ExtractJobMessage) => {
  try {
    const page =
      job.degradeReason === undefined
        ? pageFromBody(job.text, job.contentType, job.options)
        : plainPageFromBody(job.text, job.contentType, job.options, job.degradeReason)
    parentPort?.postMessage({ id: job.id, page })
  } catch (error) {
    parentPort?.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) })
  }
})
