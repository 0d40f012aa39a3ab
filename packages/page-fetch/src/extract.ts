import { isProbablyReaderable } from '@mozilla/readability'
import { type El, NOISE_SELECTOR, absolutize, baseFor, blockText, orNull, parseDocument, resolveUrl } from './_dom.js'
import { type HtmlShape, htmlToText, measureHtml, measureHtmlForReading, withoutDeadText } from './_html-scan.js'
import { toMarkdown } from './_markdown.js'
import { readArticle } from './_readability.js'
import { collectLinks } from './_page-links.js'
import { MetaTags, findLang, findPublishedAt, isoDate } from './_page-meta.js'
import { textPage } from './_text-pages.js'
import type { PageLink, ReadablePage } from './page.js'

/** Bounds past which an HTML page skips readable extraction and degrades to plain text. */
export interface ExtractLimits {
  /** Deepest element nesting. Default 256 (the deepest of 311 real pages in the test corpus: 51). */
  maxDepth: number
  /** Elements in the document. Default 40 000 (corpus maximum: 9,888). */
  maxElements: number
  /** `<a href>` elements. Default 10 000 (corpus maximum: 3,859). */
  maxLinks: number
  /**
   * Every element's nesting depth, summed (`HtmlShape.totalDepth`). Default 500 000 (corpus maximum: 120,183).
   * Deep nesting repeated across a page stays under the other bounds and still costs Readability a minute.
   */
  maxTotalDepth: number
  /** Attributes in start tags. Default 60 000 (corpus maximum: 13,949); each costs linkedom and Readability ~50 µs. */
  maxAttributes: number
}

/**
 * The default `ExtractLimits`. Readability's cost grows with elements (~0.12 ms each), with the nesting above them
 * (~7 µs per unit of `totalDepth`: 150 chains of 250 nested `<div>`s, 0.4 MB, took 52-78 s) and with attributes
 * (~50 µs each), and its DOM takes ~4 KB of heap per element. The bounds stay about 4 times above the largest real
 * pages measured (the largest, a 1 MB Wikipedia article, reads in ~2 s), so a page they let through reads in a few
 * seconds; the job's time limit covers the rest.
 */
export const DEFAULT_EXTRACT_LIMITS: Readonly<ExtractLimits> = Object.freeze({
  maxDepth: 256,
  maxElements: 40_000,
  maxLinks: 10_000,
  maxTotalDepth: 500_000,
  maxAttributes: 60_000,
})

/** Options of `extractReadable`. */
export interface ExtractReadableOptions {
  /** The page's URL: relative links resolve against it (or its `<base href>`). */
  url: string
  /** The URL after redirects, when different; defaults to `url`. */
  finalUrl?: string
  /** Bounds past which the page degrades to plain text; each defaults to `DEFAULT_EXTRACT_LIMITS`. */
  limits?: Partial<ExtractLimits>
}

/**
 * Extracts the readable main content of an HTML document (pure: no I/O, runs on the calling thread): Readability on
 * a linkedom DOM, markdown via turndown, metadata, and the main content's links resolved to absolute URLs and
 * deduplicated. A linear pre-scan (no DOM) measures nesting, elements and links first; a page over
 * `options.limits` skips the DOM and degrades to plain text with `degraded` saying why. Never throws on malformed
 * HTML; a page Readability cannot handle falls back to its body minus chrome. `ExtractPool` runs this off the
 * main thread with a time and memory limit.
 */
export function extractReadable(html: string, options: ExtractReadableOptions): ReadablePage {
  const pageUrl = options.finalUrl ?? options.url
  const source = typeof html === 'string' ? html : String(html)
  const { shape, deadText } = measureHtmlForReading(source)
  const tooComplex = shapeReason(shape, { ...DEFAULT_EXTRACT_LIMITS, ...options.limits })
  if (tooComplex) return plainTextPage(source, options, `page too complex for readable extraction: ${tooComplex}`)
  try {
    return extractFromDocument(withoutDeadText(source, deadText), options, pageUrl)
  } catch (error) {
    // linkedom and Readability are not hardened against every malformed input; degrade to tag-stripped text.
    const why = error instanceof Error ? error.message : String(error)
    return plainTextPage(source, options, `readable extraction failed: ${why.slice(0, 200)}`)
  }
}

const count = (n: number) => n.toLocaleString('en-US')

/** Why `html` is too complex for a DOM, if it is. */
export function complexityReason(html: string, limits: ExtractLimits): string | undefined {
  return shapeReason(measureHtml(html), limits)
}

function shapeReason(shape: HtmlShape, limits: ExtractLimits): string | undefined {
  if (shape.maxDepth > limits.maxDepth)
    return `${count(shape.maxDepth)} levels of nesting (limit ${count(limits.maxDepth)})`
  if (shape.elements > limits.maxElements)
    return `${count(shape.elements)} elements (limit ${count(limits.maxElements)})`
  if (shape.links > limits.maxLinks) return `${count(shape.links)} links (limit ${count(limits.maxLinks)})`
  if (shape.totalDepth > limits.maxTotalDepth)
    return `total nesting depth ${count(shape.totalDepth)}, every element's depth summed (limit ${count(limits.maxTotalDepth)})`
  if (shape.attributes > limits.maxAttributes)
    return `${count(shape.attributes)} attributes (limit ${count(limits.maxAttributes)})`
  return undefined
}

/**
 * An HTML page as plain text, from a linear scan with no DOM: visible text in paragraphs, the `<title>`, the first
 * 1,000 http(s) links (context: their text). `degraded` carries `reason`.
 */
export function plainTextPage(html: string, options: ExtractReadableOptions, reason: string): ReadablePage {
  const pageUrl = options.finalUrl ?? options.url
  const scanned = htmlToText(html)
  const page = new URL(pageUrl)
  page.hash = ''
  const links = new Map<string, PageLink>()
  for (const anchor of scanned.anchors) {
    const absolute = resolveUrl(anchor.href, pageUrl)
    if (!absolute || !/^https?:/.test(absolute)) continue
    const key = absolute.replace(/#.*$/, '')
    if (key === page.href || links.get(key)?.text) continue
    links.set(key, { url: absolute, text: anchor.text, context: anchor.text })
  }
  const text = scanned.text
  return {
    ...textPage(text, options.url, pageUrl, false),
    title: orNull(scanned.title) ?? orNull(text.split('\n', 1)[0]?.slice(0, 200)),
    links: [...links.values()],
    degraded: reason,
  }
}

function extractFromDocument(html: string, options: ExtractReadableOptions, pageUrl: string): ReadablePage {
  const document = parseDocument(html)
  const base = baseFor(document, pageUrl)

  const meta = new MetaTags(document)
  const lang = findLang(document, meta)
  const publishedAt = findPublishedAt(document, meta)
  const docTitle = orNull(document.querySelector('title')?.textContent)
  let readerable = false
  try {
    readerable = isProbablyReaderable(document as never)
  } catch {
    readerable = false
  }

  const article = readArticle(document, html)

  let root: El
  if (article?.content && blockText(article.content).length > 0) {
    root = article.content
    // Readability keeps the whole body of a page that is not an article, site chrome included.
    for (const el of Array.from(
      root.querySelectorAll(readerable ? NOISE_SELECTOR : `${NOISE_SELECTOR}, header, footer, aside`),
    ))
      el.remove()
  } else {
    // Readability mutates the document, so start again from the source for the fallback.
    const fresh = parseDocument(html)
    for (const el of Array.from(fresh.querySelectorAll(`${NOISE_SELECTOR}, header, footer, aside`))) el.remove()
    root = fresh.body ?? fresh.documentElement
  }
  // Only what is kept: Readability reads hrefs as written (it has no base URL in linkedom either way).
  absolutize(root, base)

  const text = blockText(root)
  const links = collectLinks(root, base)
  // Last: turndown consumes the tree.
  const markdown = toMarkdown(root)
  return {
    url: options.url,
    finalUrl: pageUrl,
    title: orNull(article?.title) ?? docTitle,
    byline: orNull(article?.byline),
    siteName: orNull(article?.siteName),
    lang: orNull(article?.lang) ?? lang,
    publishedAt: isoDate(article?.publishedTime) ?? publishedAt,
    excerpt: orNull(article?.excerpt),
    markdown,
    text,
    links,
    readerable,
  }
}
