import { Readability, isProbablyReaderable } from '@mozilla/readability'
import { joinParagraphs } from '@search-layer/core/text'
import { DOMParser, parseHTML } from 'linkedom'
import TurndownService from 'turndown'
import { addGfmTables } from './_gfm-tables.js'
import { htmlToText, measureHtml } from './_html-scan.js'
import { firstHeading, markdownLinkMatches, trimTrailingPunctuation } from './_text-scan.js'

/** A link found in the main content of a page. */
export interface PageLink {
  /** Absolute http(s) URL. */
  url: string
  /** The anchor text, whitespace-collapsed (may be empty for image links). */
  text: string
  /** The anchor text with up to ~120 characters of the surrounding sentence on each side. */
  context: string
}

/** The readable content of a page: main text as markdown and plain text, metadata, and the links of the main content. */
export interface ReadablePage {
  url: string
  finalUrl: string
  title: string | null
  byline: string | null
  siteName: string | null
  /** BCP 47 language tag from `<html lang>` or `content-language`, as written by the page. */
  lang: string | null
  /** ISO 8601 UTC, from `article:published_time`, JSON-LD `datePublished`, other date meta, or `<time datetime>`. */
  publishedAt: string | null
  excerpt: string | null
  markdown: string
  text: string
  links: PageLink[]
  /** Whether the page looks like an article (Readability's `isProbablyReaderable`); false pages fall back to the whole body. */
  readerable: boolean
  /**
   * Set when the page was not extracted readably but degraded to plain text, saying why (too deep, too many elements
   * or links, out of time or memory). `markdown` is then the escaped text and `links` the page's first 1,000 links.
   */
  degraded?: string
}

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

// Minimal structural view of the linkedom DOM: its types are not the lib.dom ones and we use few members.
interface El {
  nodeType: number
  nodeName: string
  tagName: string
  textContent: string | null
  parentNode: El | null
  childNodes: ArrayLike<El>
  getAttribute(name: string): string | null
  setAttribute(name: string, value: string): void
  querySelector(selector: string): El | null
  querySelectorAll(selector: string): ArrayLike<El>
  remove(): void
  innerHTML: string
}
interface Doc extends El {
  documentElement: El
  body: El | null
  head: El | null
  title: string
}

const BLOCK_TAGS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BODY',
  'DD',
  'DETAILS',
  'DIV',
  'DL',
  'DT',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'SUMMARY',
  'TABLE',
  'TBODY',
  'TD',
  'TFOOT',
  'TH',
  'THEAD',
  'TR',
  'UL',
])
const CONTEXT_BLOCK_TAGS = new Set([
  'P',
  'LI',
  'TD',
  'TH',
  'DD',
  'DT',
  'BLOCKQUOTE',
  'FIGCAPTION',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'PRE',
  'CAPTION',
  'SUMMARY',
])
const NOISE_SELECTOR =
  'script, style, noscript, template, iframe, object, embed, svg, canvas, nav, form, button, input, select, textarea, dialog'
const CONTEXT_CHARS = 120

function collapse(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim()
}

function orNull(text: string | null | undefined): string | null {
  const value = collapse(text)
  return value === '' ? null : value
}

/** Block-aware text: paragraphs separated by blank lines, inline whitespace collapsed (textContent glues blocks together). */
function blockText(root: El): string {
  const parts: string[] = []
  const walk = (node: El) => {
    if (node.nodeType === 3) {
      parts.push(node.textContent ?? '')
      return
    }
    if (node.nodeType !== 1 && node.nodeType !== 11 && node.nodeType !== 9) return
    const tag = node.tagName ?? ''
    if (tag === 'SCRIPT' || tag === 'STYLE' || tag === 'NOSCRIPT' || tag === 'TEMPLATE') return
    if (tag === 'BR') {
      parts.push('\n')
      return
    }
    const block = BLOCK_TAGS.has(tag)
    if (block) parts.push('\n\n')
    for (const child of Array.from(node.childNodes)) walk(child)
    if (block) parts.push('\n\n')
  }
  walk(root)
  return joinParagraphs(parts)
}

function resolveUrl(href: string | null, base: string): string | undefined {
  if (!href) return undefined
  const trimmed = href.trim()
  if (trimmed === '') return undefined
  try {
    return new URL(trimmed, base).href
  } catch {
    return undefined
  }
}

function baseFor(doc: Doc, pageUrl: string): string {
  const baseHref = doc.querySelector('base[href]')?.getAttribute('href') ?? null
  return resolveUrl(baseHref, pageUrl) ?? pageUrl
}

/** Rewrites link and media URLs to absolute ones, since linkedom has no baseURI for Readability to use. */
function absolutize(doc: Doc, base: string): void {
  for (const [selector, attr] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
    ['source[src]', 'src'],
    ['video[poster]', 'poster'],
  ] as const) {
    for (const el of Array.from(doc.querySelectorAll(selector))) {
      const value = el.getAttribute(attr)
      // Leave in-page anchors and non-navigations alone; they are dropped from links later.
      if (!value || value.startsWith('#') || /^\s*javascript:/i.test(value)) continue
      const absolute = resolveUrl(value, base)
      if (absolute) el.setAttribute(attr, absolute)
    }
  }
}

function metaContent(doc: Doc, selectors: readonly string[]): string | null {
  for (const selector of selectors) {
    const value = orNull(doc.querySelector(selector)?.getAttribute('content'))
    if (value) return value
  }
  return null
}

function isoDate(value: string | null | undefined): string | null {
  if (!value) return null
  const trimmed = value.trim()
  // A bare year or a number is not a publication date we can trust.
  if (!/^\d{4}-\d{2}|[A-Za-z]{3,}/.test(trimmed)) return null
  // NOTE(ecma262): a date-time without an offset parses as local time; pages mean UTC far more often than the server's zone.
  const floating = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/.exec(trimmed)
  const ms = Date.parse(floating ? `${floating[1]}T${floating[2]}Z` : trimmed)
  if (Number.isNaN(ms)) return null
  const year = new Date(ms).getUTCFullYear()
  return year >= 1990 && year <= 2100 ? new Date(ms).toISOString() : null
}

function jsonLdDates(doc: Doc): string[] {
  const found: string[] = []
  const visit = (value: unknown, depth: number) => {
    if (depth > 6 || value === null || typeof value !== 'object') return
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1)
      return
    }
    const record = value as Record<string, unknown>
    if (typeof record.datePublished === 'string') found.push(record.datePublished)
    for (const key of ['@graph', 'mainEntity', 'mainEntityOfPage']) if (key in record) visit(record[key], depth + 1)
  }
  for (const script of Array.from(doc.querySelectorAll('script[type="application/ld+json"]'))) {
    try {
      visit(JSON.parse(script.textContent ?? ''), 0)
    } catch {
      // Malformed JSON-LD is common; the other sources still apply.
    }
  }
  return found
}

function findPublishedAt(doc: Doc): string | null {
  const candidates: (string | null)[] = [
    metaContent(doc, [
      'meta[property="article:published_time"]',
      'meta[name="article:published_time"]',
      'meta[itemprop="datePublished"]',
      'meta[property="og:published_time"]',
      'meta[name="date"]',
      'meta[name="pubdate"]',
      'meta[name="publishdate"]',
      'meta[name="dc.date"]',
      'meta[name="DC.date.issued"]',
      'meta[name="dcterms.created"]',
      'meta[property="datePublished"]',
    ]),
    ...jsonLdDates(doc),
    doc.querySelector('[itemprop="datePublished"][datetime]')?.getAttribute('datetime') ?? null,
    doc.querySelector('time[pubdate][datetime]')?.getAttribute('datetime') ?? null,
    doc.querySelector('article time[datetime]')?.getAttribute('datetime') ?? null,
    doc.querySelector('time[datetime]')?.getAttribute('datetime') ?? null,
  ]
  for (const candidate of candidates) {
    const iso = isoDate(candidate)
    if (iso) return iso
  }
  return null
}

function findLang(doc: Doc): string | null {
  return (
    orNull(doc.documentElement?.getAttribute('lang')) ??
    orNull(doc.documentElement?.getAttribute('xml:lang')) ??
    metaContent(doc, [
      'meta[http-equiv="content-language" i]',
      'meta[name="language"]',
      'meta[property="og:locale"]',
    ])?.replace(/_/g, '-') ??
    null
  )
}

function contextAround(anchor: El, anchorText: string, blockTexts: Map<El, string>): string {
  let block: El | null = anchor.parentNode
  while (block && block.nodeType === 1 && !CONTEXT_BLOCK_TAGS.has(block.tagName) && !BLOCK_TAGS.has(block.tagName))
    block = block.parentNode
  let blockContent: string
  if (block && block.nodeType === 1) {
    // Many links share one block (a list of 2,000 links in one <div>): its text is collapsed once, not per link.
    blockContent = blockTexts.get(block) ?? collapse(block.textContent)
    blockTexts.set(block, blockContent)
  } else blockContent = collapse(anchor.textContent)
  if (anchorText === '') return blockContent.slice(0, CONTEXT_CHARS * 2)
  const at = blockContent.indexOf(anchorText)
  if (at < 0) return anchorText
  let start = Math.max(0, at - CONTEXT_CHARS)
  let end = Math.min(blockContent.length, at + anchorText.length + CONTEXT_CHARS)
  // Cut on word boundaries so the context does not start or end mid-word.
  if (start > 0) {
    const space = blockContent.indexOf(' ', start)
    if (space >= 0 && space < at) start = space + 1
  }
  if (end < blockContent.length) {
    const space = blockContent.lastIndexOf(' ', end)
    if (space > at + anchorText.length) end = space
  }
  return `${start > 0 ? '…' : ''}${blockContent.slice(start, end)}${end < blockContent.length ? '…' : ''}`
}

function collectLinks(root: El, pageUrl: string): PageLink[] {
  const byKey = new Map<string, PageLink>()
  const blockTexts = new Map<El, string>()
  const page = new URL(pageUrl)
  page.hash = ''
  for (const anchor of Array.from(root.querySelectorAll('a[href]'))) {
    const href = anchor.getAttribute('href')
    const absolute = resolveUrl(href, pageUrl)
    if (!absolute) continue
    const parsed = new URL(absolute)
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') continue
    parsed.hash = ''
    // In-page anchors (footnotes, table of contents) are not references to other documents.
    if (parsed.href === page.href) continue
    const text = collapse(anchor.textContent) || collapse(anchor.querySelector('img[alt]')?.getAttribute('alt'))
    const existing = byKey.get(parsed.href)
    if (existing && existing.text !== '') continue
    byKey.set(parsed.href, { url: existing?.url ?? absolute, text, context: contextAround(anchor, text, blockTexts) })
  }
  return [...byKey.values()]
}

function createTurndown(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    hr: '---',
    linkStyle: 'inlined',
  })
  service.remove([
    'script',
    'style',
    'noscript',
    'template',
    'iframe',
    'object',
    'embed',
    'nav',
    'form',
    'button',
    'input',
    'select',
    'textarea',
  ] as never)
  addGfmTables(service)
  // NOTE(turndown): its default list prefix is `-   ` (marker plus three spaces); one space is what people write and diff.
  service.addRule('compactListItem', {
    filter: 'li',
    replacement: (content, node, options) => {
      const el = node as unknown as El & { parentNode: (El & { children: ArrayLike<El> }) | null; nextSibling: unknown }
      let prefix = `${options.bulletListMarker ?? '-'} `
      const parent = el.parentNode
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? '1')
        const index = Array.prototype.indexOf.call(parent.children, el)
        prefix = `${(Number.isFinite(start) ? start : 1) + index}. `
      }
      const body = content
        .replace(/^\n+/, '')
        .replace(/\n+$/, '\n')
        .replace(/\n/gm, `\n${' '.repeat(prefix.length)}`)
      return prefix + body + (el.nextSibling && !/\n$/.test(body) ? '\n' : '')
    },
  })
  // NOTE(turndown): fenced blocks take the language only from `code.language-x`; many sites put it on <pre> instead.
  service.addRule('fencedPreLanguage', {
    filter: (node) => node.nodeName === 'PRE' && !(node.firstChild && node.firstChild.nodeName === 'CODE'),
    replacement: (_content, node) => {
      const el = node as unknown as El
      const lang = /(?:lang(?:uage)?-)([\w+#-]+)/.exec(el.getAttribute('class') ?? '')?.[1] ?? ''
      const code = (el.textContent ?? '').replace(/\n$/, '')
      const fence = code.includes('```') ? '~~~' : '```'
      return `\n\n${fence}${lang}\n${code}\n${fence}\n\n`
    },
  })
  return service
}

let turndownInstance: TurndownService | undefined

function toMarkdown(root: El): string {
  turndownInstance ??= createTurndown()
  return turndownInstance
    .turndown(root as never)
    .replace(/\n{3,}/g, '\n\n')
    .trim()
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
  const tooComplex = complexityReason(source, { ...DEFAULT_EXTRACT_LIMITS, ...options.limits })
  if (tooComplex) return plainTextPage(source, options, `page too complex for readable extraction: ${tooComplex}`)
  try {
    return extractFromDocument(source, options, pageUrl)
  } catch (error) {
    // linkedom and Readability are not hardened against every malformed input; degrade to tag-stripped text.
    const why = error instanceof Error ? error.message : String(error)
    return plainTextPage(source, options, `readable extraction failed: ${why.slice(0, 200)}`)
  }
}

const count = (n: number) => n.toLocaleString('en-US')

function complexityReason(html: string, limits: ExtractLimits): string | undefined {
  const shape = measureHtml(html)
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
function plainTextPage(html: string, options: ExtractReadableOptions, reason: string): ReadablePage {
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

function parseDocument(html: string): Doc {
  // linkedom builds no <html>/<body> for fragments; wrap them so the DOM has the shape Readability expects.
  const wrapped = /<html[\s>]/i.test(html) ? html : `<!DOCTYPE html><html><head></head><body>${html}</body></html>`
  return (parseHTML(wrapped) as unknown as { document: Doc }).document
}

function extractFromDocument(html: string, options: ExtractReadableOptions, pageUrl: string): ReadablePage {
  const document = parseDocument(html)
  const base = baseFor(document, pageUrl)
  absolutize(document, base)

  const lang = findLang(document)
  const publishedAt = findPublishedAt(document)
  const docTitle = orNull(document.querySelector('title')?.textContent)
  let readerable = false
  try {
    readerable = isProbablyReaderable(document as never)
  } catch {
    readerable = false
  }

  let article: ReturnType<Readability<El>['parse']> = null
  try {
    article = new Readability<El>(document as never, {
      serializer: (el) => el as unknown as El,
      keepClasses: true,
    }).parse()
  } catch {
    article = null
  }

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
    absolutize(fresh, baseFor(fresh, pageUrl))
    for (const el of Array.from(fresh.querySelectorAll(`${NOISE_SELECTOR}, header, footer, aside`))) el.remove()
    root = fresh.body ?? fresh.documentElement
  }

  const text = blockText(root)
  return {
    url: options.url,
    finalUrl: pageUrl,
    title: orNull(article?.title) ?? docTitle,
    byline: orNull(article?.byline),
    siteName: orNull(article?.siteName),
    lang: orNull(article?.lang) ?? lang,
    publishedAt: isoDate(article?.publishedTime) ?? publishedAt,
    excerpt: orNull(article?.excerpt),
    markdown: toMarkdown(root),
    text,
    links: collectLinks(root, base),
    readerable,
  }
}

/** A page from a JSON body: pretty-printed in a fenced block, links from string values. */
function jsonPage(text: string, url: string, finalUrl: string): ReadablePage {
  let pretty = text.trim()
  let title: string | null = null
  try {
    const value: unknown = JSON.parse(text)
    pretty = JSON.stringify(value, null, 2)
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const record = value as Record<string, unknown>
      const candidate = record.title ?? record.name
      if (typeof candidate === 'string') title = orNull(candidate)
    }
  } catch {
    // Served as JSON but is not: show it verbatim.
  }
  return {
    url,
    finalUrl,
    title,
    byline: null,
    siteName: null,
    lang: null,
    publishedAt: null,
    excerpt: null,
    markdown: `\`\`\`json\n${pretty}\n\`\`\``,
    text: pretty,
    links: plainLinks(text, finalUrl),
    readerable: false,
  }
}

const PLAIN_URL = /\bhttps?:\/\/[^\s<>"'`]+/g

/** Bare URLs in plain text, trailing punctuation excluded, with ±context. */
function plainLinks(text: string, _base: string): PageLink[] {
  const seen = new Map<string, PageLink>()
  for (const match of text.matchAll(PLAIN_URL)) {
    const raw = trimTrailingPunctuation(match[0])
    let url: string
    try {
      url = new URL(raw).href
    } catch {
      continue
    }
    const key = url.replace(/#.*$/, '')
    if (seen.has(key)) continue
    const at = match.index ?? 0
    const context = collapse(text.slice(Math.max(0, at - CONTEXT_CHARS), at + raw.length + CONTEXT_CHARS))
    seen.set(key, { url, text: raw, context })
  }
  return [...seen.values()]
}

/** A page from a text/plain or text/markdown body: the text as is, title from the first heading or line. */
function textPage(text: string, url: string, finalUrl: string, markdown: boolean): ReadablePage {
  const normalized = text.replace(/\r\n?/g, '\n').trim()
  const heading = markdown ? firstHeading(normalized) : undefined
  const firstLine = normalized.split('\n').find((line) => line.trim() !== '')
  const mdLinks: PageLink[] = []
  if (markdown) {
    for (const match of markdownLinkMatches(normalized)) {
      const absolute = resolveUrl(match.target, finalUrl)
      if (!absolute || !/^https?:/.test(absolute)) continue
      const at = match.index
      mdLinks.push({
        url: absolute,
        text: collapse(match.label),
        context: collapse(normalized.slice(Math.max(0, at - CONTEXT_CHARS), at + match.length + CONTEXT_CHARS)),
      })
    }
  }
  const links = new Map<string, PageLink>()
  for (const link of [...mdLinks, ...plainLinks(normalized, finalUrl)]) {
    const key = link.url.replace(/#.*$/, '')
    if (!links.has(key)) links.set(key, link)
  }
  return {
    url,
    finalUrl,
    title: orNull(heading ?? firstLine?.slice(0, 200)),
    byline: null,
    siteName: null,
    lang: null,
    publishedAt: null,
    excerpt: orNull(
      normalized
        .split(/\n\s*\n/)
        .find((para) => !para.startsWith('#'))
        ?.slice(0, 300),
    ),
    markdown: markdown ? normalized : normalized.replace(/([\\`*_[\]#<>])/g, '\\$1'),
    text: normalized,
    links: [...links.values()],
    readerable: false,
  }
}

/** A page from an RSS or Atom feed or other XML: title, items as a markdown list, item links. */
function xmlPage(text: string, url: string, finalUrl: string): ReadablePage {
  const doc = new DOMParser().parseFromString(text, 'text/xml') as unknown as Doc
  const pick = (el: El | null, name: string) => {
    if (!el) return undefined
    for (const child of Array.from(el.childNodes))
      if (child.nodeType === 1 && child.nodeName.toLowerCase() === name) return child
    return undefined
  }
  const channel = doc.querySelector('channel') ?? doc.querySelector('feed')
  const title = orNull(pick(channel, 'title')?.textContent ?? doc.querySelector('title')?.textContent)
  const items = Array.from(doc.querySelectorAll('item, entry'))
  const links: PageLink[] = []
  const lines: string[] = title ? [`# ${title}`, ''] : []
  for (const item of items) {
    const itemTitle = collapse(pick(item, 'title')?.textContent)
    const linkEl = pick(item, 'link')
    const href = resolveUrl(linkEl?.getAttribute('href') || collapse(linkEl?.textContent) || null, finalUrl)
    const summary = collapse(pick(item, 'description')?.textContent ?? pick(item, 'summary')?.textContent).slice(0, 300)
    if (href && /^https?:/.test(href)) {
      links.push({
        url: href,
        text: itemTitle,
        context: collapse(`${itemTitle} ${summary}`).slice(0, CONTEXT_CHARS * 2),
      })
      lines.push(`- [${itemTitle || href}](${href})${summary ? ` — ${summary}` : ''}`)
    } else if (itemTitle) {
      lines.push(`- ${itemTitle}`)
    }
  }
  const plain = blockText(doc.documentElement ?? doc)
  return {
    url,
    finalUrl,
    title,
    byline: null,
    siteName: null,
    lang: orNull(doc.documentElement?.getAttribute('xml:lang')) ?? orNull(doc.querySelector('language')?.textContent),
    publishedAt: null,
    excerpt: null,
    markdown: items.length > 0 ? lines.join('\n') : plain,
    text: plain,
    links: links.length > 0 ? links : plainLinks(plain, finalUrl),
    readerable: false,
  }
}

/**
 * Turns a decoded body of any allowed media type into a `ReadablePage` (pure): HTML through `extractReadable`,
 * JSON pretty-printed, markdown and plain text as they are, RSS/Atom/XML as a list of items.
 */
export function pageFromBody(text: string, contentType: string, options: ExtractReadableOptions): ReadablePage {
  const finalUrl = options.finalUrl ?? options.url
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? ''
  if (type === 'text/html' || type === 'application/xhtml+xml') return extractReadable(text, options)
  if (type === 'application/json' || type.endsWith('+json')) return jsonPage(text, options.url, finalUrl)
  if (type === 'text/markdown' || type === 'text/x-markdown') return textPage(text, options.url, finalUrl, true)
  if (type.endsWith('/xml') || type.endsWith('+xml')) {
    const tooComplex = complexityReason(text, { ...DEFAULT_EXTRACT_LIMITS, ...options.limits })
    if (tooComplex)
      return { ...plainTextPage(text, options, `feed too complex to read as items: ${tooComplex}`), readerable: false }
    return xmlPage(text, options.url, finalUrl)
  }
  return textPage(text, options.url, finalUrl, false)
}

/**
 * What `pageFromBody` degrades to when extraction cannot run or finish (out of time or memory): HTML and XML as
 * plain text from a linear scan, other bodies as they are; `degraded` says `reason`.
 */
export function plainPageFromBody(
  text: string,
  contentType: string,
  options: ExtractReadableOptions,
  reason: string,
): ReadablePage {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? ''
  if (type === 'text/html' || type.endsWith('/xml') || type.endsWith('+xml'))
    return plainTextPage(text, options, reason)
  const markdown = type === 'text/markdown' || type === 'text/x-markdown'
  return { ...textPage(text, options.url, options.finalUrl ?? options.url, markdown), degraded: reason }
}
