import { orNull } from './_dom.js'
import { plainLinks } from './_page-links.js'
import { isoDate } from './_page-meta.js'
import { escapeMarkdown } from './_text-pages.js'
import type { ReadablePage } from './page.js'

/** Why a PDF gave no page: kept free of `FetchError` (and of core) so the extraction worker stays light. */
export class PdfReadFailure extends Error {
  override readonly name = 'PdfReadFailure'
  constructor(
    readonly kind: 'empty' | 'unreadable',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/** Options of `pageFromPdf`. */
export interface PdfReadOptions {
  /** The document's URL (named in errors). */
  url: string
  /** The URL after redirects, when different; defaults to `url`. */
  finalUrl?: string
  /** Pages read, from the first; the rest are named in a closing comment. Default `DEFAULT_PDF_MAX_PAGES`. */
  maxPages?: number
}

/** Pages of a PDF read unless told otherwise: a paper or a spec chapter, not a whole manual. */
export const DEFAULT_PDF_MAX_PAGES = 50

type PdfJs = typeof import('unpdf')
type PdfDocument = Awaited<ReturnType<PdfJs['getDocumentProxy']>>
interface TextRun {
  str?: string
  hasEOL?: boolean
  height?: number
  transform?: number[]
}

// Loaded on the first PDF only: a process that never meets one never loads pdf.js (2 MB of code).
let pdfJs: Promise<PdfJs> | undefined

/**
 * `pageFromPdf`'s work, throwing `PdfReadFailure`: what the worker runs.
 */
export async function readPdf(bytes: Uint8Array, options: PdfReadOptions): Promise<ReadablePage> {
  const maxPages = Math.max(1, Math.floor(options.maxPages ?? DEFAULT_PDF_MAX_PAGES))
  pdfJs ??= import('unpdf')
  const { getDocumentProxy } = await pdfJs
  let doc: PdfDocument
  try {
    // A copy: pdf.js takes the buffer over, and the caller's may be a view into a pooled one.
    doc = await getDocumentProxy(new Uint8Array(bytes), {
      verbosity: 0,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
    })
  } catch (error) {
    throw unreadable(error, options.url)
  }
  try {
    return await readDocument(doc, options, maxPages)
  } catch (error) {
    throw error instanceof PdfReadFailure ? error : unreadable(error, options.url)
  } finally {
    await doc.destroy().catch(() => {})
  }
}

async function readDocument(doc: PdfDocument, options: PdfReadOptions, maxPages: number): Promise<ReadablePage> {
  const finalUrl = options.finalUrl ?? options.url
  const info = ((await doc.getMetadata().catch(() => undefined))?.info ?? {}) as Record<string, unknown>
  const pageCount = doc.numPages
  const pages: string[] = []
  for (let number = 1; number <= Math.min(pageCount, maxPages); number++) {
    const page = await doc.getPage(number)
    pages.push(pageText((await page.getTextContent()).items as TextRun[]))
    page.cleanup()
  }
  const text = pages.filter((page) => page !== '').join('\n\n')
  if (text === '')
    throw new PdfReadFailure(
      'empty',
      `${options.url.slice(0, 200)} has no text layer in its first ${pages.length} page(s) (scanned images?)`,
    )
  const markdown = pages.map((page, i) => `<!-- page ${i + 1} -->\n\n${escapeMarkdown(page)}`.trim())
  if (pageCount > pages.length)
    markdown.push(`<!-- pages ${pages.length + 1}-${pageCount} not read: the limit is ${maxPages} pages -->`)
  // The text is not empty and its lines are trimmed, so its first line is a title of last resort.
  const firstLine = text.split('\n', 1)[0]?.slice(0, 200)
  return {
    url: options.url,
    finalUrl,
    title: infoText(info.Title) ?? orNull(firstLine),
    byline: infoText(info.Author),
    siteName: null,
    lang: infoText(info.Language),
    publishedAt: pdfDate(infoText(info.CreationDate)),
    excerpt: orNull(text.split('\n\n', 1)[0]?.slice(0, 300)),
    markdown: markdown.join('\n\n'),
    text,
    links: plainLinks(text, finalUrl),
    readerable: false,
  }
}

/**
 * A page's text runs as lines, a blank line where the gap above a line is wider than one and a half of its
 * height (pdf.js reports lines, not paragraphs); spaces collapsed.
 */
function pageText(runs: readonly TextRun[]): string {
  let out = ''
  let lineY: number | undefined
  let lineHeight = 0
  let atLineStart = true
  for (const run of runs) {
    if (typeof run.str !== 'string') continue
    const y = run.transform?.[5]
    if (atLineStart && y !== undefined && run.str.trim() !== '') {
      const gap = lineY === undefined ? 0 : lineY - y
      if (out !== '' && gap > 1.5 * Math.max(lineHeight, run.height ?? 0)) out += '\n'
      lineY = y
      lineHeight = run.height ?? lineHeight
      atLineStart = false
    }
    out += run.str
    if (run.hasEOL) {
      out += '\n'
      atLineStart = true
    }
  }
  return out
    .split('\n')
    .map((line) => line.replace(/[ \t\f\r\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

function infoText(value: unknown): string | null {
  return typeof value === 'string' ? orNull(value.slice(0, 500)) : null
}

/** A PDF date (`D:20140102050054-08'00'`, ISO 32000 §7.9.4) as ISO 8601 UTC. */
function pdfDate(value: string | null): string | null {
  const m = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(Z|[+-]\d{2}'?\d{2}'?)?/.exec(value ?? '')
  if (!m) return null
  const zone = !m[7] || m[7].startsWith('Z') ? 'Z' : `${m[7].slice(0, 3)}:${m[7].replace(/'/g, '').slice(3, 5)}`
  return isoDate(`${m[1]}-${m[2] ?? '01'}-${m[3] ?? '01'}T${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}${zone}`)
}

function unreadable(error: unknown, url: string): PdfReadFailure {
  const name = error instanceof Error ? error.name : ''
  const detail = (error instanceof Error ? error.message : String(error)).slice(0, 200)
  const why =
    name === 'PasswordException'
      ? 'is encrypted and needs a password'
      : name === 'InvalidPDFException'
        ? `is not a valid PDF (${detail})`
        : `could not be read as a PDF (${detail})`
  return new PdfReadFailure('unreadable', `${url.slice(0, 200)} ${why}`, { cause: error })
}
