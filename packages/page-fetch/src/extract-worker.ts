// The worker side of `ExtractPool`: runs `pageFromBody` for each job it is sent (`plainPageFromBody` for a job
// being degraded, `readPdf` for a PDF) and posts the page back, or a PDF's typed failure.
// Loaded by `new Worker(...)` only; importing it elsewhere does nothing. It imports neither core nor pdf.js up
// front: a worker starts in the time its HTML reader takes to load, and pdf.js loads with the first PDF.
import { parentPort } from 'node:worker_threads'
import { type PdfReadOptions, PdfReadFailure, readPdf } from './_pdf-read.js'
import type { ExtractReadableOptions } from './extract.js'
import { pageFromBody, plainPageFromBody } from './page-from-body.js'

/** A text job sent to the worker. */
export interface ExtractJobMessage {
  id: number
  text: string
  contentType: string
  options: ExtractReadableOptions
  /** Set when the job is read as plain text instead: why it could not be read readably. */
  degradeReason?: string
}

/** A PDF job sent to the worker: the document's bytes. */
export interface PdfJobMessage {
  id: number
  pdf: Uint8Array
  options: PdfReadOptions
}

/** What the worker answers: a page, or why not (`failure` for a typed one, `error` for anything else). */
export interface ExtractReply {
  id: number
  page?: unknown
  failure?: { kind: PdfReadFailure['kind']; message: string }
  error?: string
}

parentPort?.on('message', (job: ExtractJobMessage | PdfJobMessage) => {
  if ('pdf' in job) {
    readPdf(job.pdf, job.options).then(
      (page) => parentPort?.postMessage({ id: job.id, page } satisfies ExtractReply),
      (error: unknown) => parentPort?.postMessage(failureReply(job.id, error)),
    )
    return
  }
  try {
    const page =
      job.degradeReason === undefined
        ? pageFromBody(job.text, job.contentType, job.options)
        : plainPageFromBody(job.text, job.contentType, job.options, job.degradeReason)
    parentPort?.postMessage({ id: job.id, page } satisfies ExtractReply)
  } catch (error) {
    parentPort?.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) })
  }
})

// Every import above has loaded: the pool starts the clock of a job that waited for this worker to start.
parentPort?.postMessage({ ready: true })

function failureReply(id: number, error: unknown): ExtractReply {
  if (error instanceof PdfReadFailure) return { id, failure: { kind: error.kind, message: error.message } }
  return { id, error: error instanceof Error ? error.message : String(error) }
}
