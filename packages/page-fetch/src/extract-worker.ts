// The worker side of `ExtractPool`: runs `pageFromBody` for each job it is sent and posts the page back.
// Loaded by `new Worker(...)` only; importing it elsewhere does nothing.
import { parentPort } from 'node:worker_threads'
import { type ExtractReadableOptions, pageFromBody } from './extract.js'

/** A job sent to the worker. */
export interface ExtractJobMessage {
  id: number
  text: string
  contentType: string
  options: ExtractReadableOptions
}

parentPort?.on('message', (job: ExtractJobMessage) => {
  try {
    parentPort?.postMessage({ id: job.id, page: pageFromBody(job.text, job.contentType, job.options) })
  } catch (error) {
    parentPort?.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) })
  }
})
