import { type PdfReadOptions, PdfReadFailure, readPdf } from './_pdf-read.js'
import { FetchError } from './errors.js'
import type { ReadablePage } from './page.js'

export { DEFAULT_PDF_MAX_PAGES, type PdfReadOptions } from './_pdf-read.js'

/**
 * Reads a PDF's text layer into a `ReadablePage` with pdf.js (through unpdf, loaded on the first PDF), on the
 * calling thread: one `<!-- page N -->` marker before each page's text, at most `maxPages` pages (default 50; a
 * closing comment names the pages left), the title from the document info, else the first line of text.
 * `ExtractPool.pageFromPdf` runs this in a worker with a time limit; call it directly only where a slow document
 * may hold the thread.
 * @throws FetchError `unreadable` (broken or encrypted), `empty` (no text layer: scanned pages).
 */
export async function pageFromPdf(bytes: Uint8Array, options: PdfReadOptions): Promise<ReadablePage> {
  try {
    return await readPdf(bytes, options)
  } catch (error) {
    if (!(error instanceof PdfReadFailure)) throw error
    throw new FetchError(error.message, { kind: error.kind, url: options.url, cause: error.cause })
  }
}
