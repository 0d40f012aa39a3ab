import { httpUrl, isoDate, plainText } from '@search-layer/core'
import { type HtmlEvents, walkHtml } from './_html-events.js'

// Parses html.duckduckgo.com/html/ pages as a stream of htmlparser2's events (its tokenizer is the one linkedom
// builds its DOM with; _html-events.ts keeps its tree rules in linear time): results are found by class name, as
// CSS selectors would find them, so markup drift in attributes or whitespace does not break the parse, and no DOM
// is built (a tenth of the time and none of linkedom's start-up). The page is untrusted: every step is linear in
// its length, and at most MAX_RESULTS results of MAX_FIELD_CHARS per field are read.

/** One organic hit as it stands on the page, the link already unwrapped. */
export interface DuckDuckGoHit {
  title: string
  url: string
  snippet: string
  /** A date shown beside the display URL, when the page has one. */
  date: string | null
  /** The display URL (`rust-lang.org`). */
  displayUrl: string
}

/** What one results page holds. */
export interface DuckDuckGoPage {
  hits: DuckDuckGoHit[]
  /** Sponsored entries skipped. */
  ads: number
  /** Organic entries without a usable link. */
  dropped: number
}

const DDG_HOST = /(^|\.)duckduckgo\.com$/i

/**
 * The target of a result link: DuckDuckGo's `/l/?uddg=<target>` redirect (protocol-relative or absolute) is
 * unwrapped; direct links are kept; ad clicks (`duckduckgo.com/y.js`) and anything not http(s) are null.
 */
export function unwrapDuckDuckGoUrl(href: string | null | undefined): string | null {
  if (!href) return null
  let url: URL
  try {
    url = new URL(href.trim(), 'https://duckduckgo.com')
  } catch {
    return null
  }
  if (DDG_HOST.test(url.hostname)) {
    if (url.pathname === '/l/' || url.pathname === '/l') return httpUrl(url.searchParams.get('uddg'))
    return null
  }
  return httpUrl(url.href)
}

/** True for DuckDuckGo's bot challenge ("anomaly") page, which must never be read as results. */
export function isDuckDuckGoChallenge(html: string): boolean {
  return /anomaly-modal|anomaly\.js|id="challenge-form"/.test(html)
}

const DATE_TEXT = /\d{4}-\d{2}-\d{2}(?:T[\d:.]+Z?)?/

/**
 * Most `div.result` elements read from one page. A page holds about ten organic hits and `num` is at most 100; a
 * page claiming more is not a results page, and what it costs to read stops here.
 */
export const MAX_RESULTS = 100
/** Most characters of one field's text kept before cleaning: titles and snippets are a few hundred. */
export const MAX_FIELD_CHARS = 4096

type Part = 'link' | 'snippet' | 'extras' | 'url'
const PARTS: readonly Part[] = ['link', 'snippet', 'extras', 'url']
const PART_CLASS: [string, Part][] = [
  ['result__snippet', 'snippet'],
  ['result__extras__url', 'extras'],
  ['result__url', 'url'],
]

/** An element whose text is a field of results: the span of the page's text between its start and end tags. */
interface Capture {
  depth: number
  from: number
  to: number
  href: string | undefined
}

/** One `div.result`; each field is the first matching descendant, as `querySelector` would give. */
interface OpenResult {
  depth: number
  ownAd: boolean
  /** Ad badges seen anywhere before it opened, and before it closed: more at its end means one inside it. */
  badgesAtOpen: number
  badgesAtClose: number | undefined
  parts: Partial<Record<Part, Capture>>
}

const NO_CLASSES: readonly string[] = []
const classesOf = ({ class: names }: Readonly<Record<string, string>>): readonly string[] =>
  names ? names.split(/[ \t\n\f\r]+/).filter(Boolean) : NO_CLASSES
const ATTRIBUTES_READ = new Set(['class', 'href'])

/** Organic results of a results page, in page order; ads are skipped and counted. Linear in the page's length. */
export function parseDuckDuckGoPage(html: string): DuckDuckGoPage {
  const reader = new ResultReader()
  walkHtml(html, reader, ATTRIBUTES_READ)
  return collectPage(reader.finish())
}

// Results nest (a page may put `div.result` in `div.result`), and an element is the field of every open result
// still without one. Those results are always the innermost open ones: once a field element opens, every open
// result has that field, and results opened later sit above them. So `pending[part]` (the stack index where they
// start) finds them without looking at the others, each result receives each field once, and a field's text is a
// span of the page's text shared by all that took it, not copied into each: the work stays linear in the page.
class ResultReader implements HtmlEvents {
  private readonly results: OpenResult[] = []
  private readonly open: OpenResult[] = []
  private readonly captures: Capture[] = []
  private readonly pending: Record<Part, number> = { link: 0, snippet: 0, extras: 0, url: 0 }
  private readonly texts: string[] = []
  private textLength = 0
  private depth = 0
  private badges = 0

  onopentag(name: string, attributes: Readonly<Record<string, string>>): void {
    this.depth++
    const classes = classesOf(attributes)
    if (classes.includes('badge--ad')) this.badges++
    if (name === 'a' && classes.includes('result__a')) this.capture('link', attributes.href)
    for (const [cls, part] of PART_CLASS) if (classes.includes(cls)) this.capture(part)
    if (name === 'div' && classes.includes('result') && this.results.length < MAX_RESULTS) {
      const result: OpenResult = {
        depth: this.depth,
        ownAd: classes.includes('result--ad'),
        badgesAtOpen: this.badges,
        badgesAtClose: undefined,
        parts: {},
      }
      this.results.push(result)
      this.open.push(result)
    }
  }

  ontext(text: string): void {
    // Only text inside a field is kept.
    if (this.captures.length === 0) return
    this.texts.push(text)
    this.textLength += text.length
  }

  onclosetag(): void {
    const { captures, open, depth } = this
    while (captures.length > 0 && captures[captures.length - 1]!.depth >= depth) captures.pop()!.to = this.textLength
    while (open.length > 0 && open[open.length - 1]!.depth >= depth) open.pop()!.badgesAtClose = this.badges
    for (const part of PARTS) this.pending[part] = Math.min(this.pending[part], open.length)
    this.depth--
  }

  /** Reading stops once the last result it may read has closed. */
  done(): boolean {
    return this.results.length >= MAX_RESULTS && this.open.length === 0
  }

  /** The results read, each field's text cut to `MAX_FIELD_CHARS`. */
  finish(): ReadResult[] {
    for (const capture of this.captures) capture.to = this.textLength
    const text = this.texts.join('')
    const field = (capture: Capture | undefined) =>
      capture && text.slice(capture.from, Math.min(capture.to, capture.from + MAX_FIELD_CHARS))
    return this.results.map((result) => ({
      isAd: result.ownAd || (result.badgesAtClose ?? this.badges) > result.badgesAtOpen,
      hasLink: result.parts.link !== undefined,
      href: result.parts.link?.href,
      link: field(result.parts.link),
      snippet: field(result.parts.snippet),
      extras: field(result.parts.extras),
      url: field(result.parts.url),
    }))
  }

  private capture(part: Part, href?: string): void {
    const { open, pending } = this
    if (pending[part] >= open.length) return
    const capture: Capture = { depth: this.depth, from: this.textLength, to: this.textLength, href }
    for (let i = pending[part]; i < open.length; i++) open[i]!.parts[part] = capture
    pending[part] = open.length
    this.captures.push(capture)
  }
}

/** A result as read: whether it is an ad, its link, and the text of each field it has. */
interface ReadResult {
  isAd: boolean
  hasLink: boolean
  href: string | undefined
  link: string | undefined
  snippet: string | undefined
  extras: string | undefined
  url: string | undefined
}

function collectPage(results: readonly ReadResult[]): DuckDuckGoPage {
  const page: DuckDuckGoPage = { hits: [], ads: 0, dropped: 0 }
  for (const result of results) {
    if (result.isAd || /duckduckgo\.com\/y\.js/.test(result.href ?? '')) {
      page.ads++
      continue
    }
    const url = unwrapDuckDuckGoUrl(result.href)
    if (!result.hasLink || !url) {
      page.dropped++
      continue
    }
    page.hits.push({
      title: plainText(result.link) || url,
      url,
      snippet: plainText(result.snippet),
      date: isoDate(DATE_TEXT.exec(result.extras ?? '')?.[0]),
      displayUrl: plainText(result.url),
    })
  }
  return page
}
