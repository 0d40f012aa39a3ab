import { httpUrl, isoDate, plainText } from '@search-layer/core'
import { Parser } from 'htmlparser2'

// Parses html.duckduckgo.com/html/ pages with htmlparser2's streaming parser (the tokenizer linkedom builds its DOM
// with): results are found by class name, as CSS selectors would find them, so markup drift in attributes or
// whitespace does not break the parse, and no DOM is built (a tenth of the time and none of linkedom's start-up).

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

/** What one `div.result` collects; each field is the first match inside it, as `querySelector` would give. */
interface OpenResult {
  /** Depth of the result's own element in the open-element stack. */
  depth: number
  isAd: boolean
  href: string | undefined
  /** Text of the first `a.result__a`, `.result__snippet`, `.result__extras__url` and `.result__url`. */
  text: Partial<Record<Part, string>>
  hasLink: boolean
}

type Part = 'link' | 'snippet' | 'extras' | 'url'
const PART_CLASS: [string, Part][] = [
  ['result__snippet', 'snippet'],
  ['result__extras__url', 'extras'],
  ['result__url', 'url'],
]

/** An element whose text one or more open results are collecting. */
interface Capture {
  depth: number
  targets: { result: OpenResult; part: Part }[]
}

const classesOf = (attributes: Record<string, string>): string[] =>
  (attributes.class ?? '').split(/[ \t\n\f\r]+/).filter(Boolean)

/** Organic results of a results page, in page order; ads are skipped and counted. */
export function parseDuckDuckGoPage(html: string): DuckDuckGoPage {
  const results: OpenResult[] = []
  const open: OpenResult[] = []
  const captures: Capture[] = []
  let depth = 0
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        depth++
        const classes = classesOf(attributes)
        for (const result of open) if (classes.includes('badge--ad')) result.isAd = true
        const targets: Capture['targets'] = []
        for (const result of open) {
          if (name === 'a' && classes.includes('result__a') && !result.hasLink) {
            result.hasLink = true
            result.href = attributes.href
            targets.push({ result, part: 'link' })
          }
          for (const [cls, part] of PART_CLASS)
            if (classes.includes(cls) && result.text[part] === undefined) targets.push({ result, part })
        }
        for (const { result, part } of targets) result.text[part] = ''
        if (targets.length > 0) captures.push({ depth, targets })
        if (name === 'div' && classes.includes('result')) {
          const result: OpenResult = {
            depth,
            isAd: classes.includes('result--ad'),
            href: undefined,
            text: {},
            hasLink: false,
          }
          results.push(result)
          open.push(result)
        }
      },
      ontext(text) {
        for (const capture of captures) for (const { result, part } of capture.targets) result.text[part] += text
      },
      onclosetag() {
        while (captures.length > 0 && captures[captures.length - 1]!.depth >= depth) captures.pop()
        while (open.length > 0 && open[open.length - 1]!.depth >= depth) open.pop()
        depth--
      },
    },
    { lowerCaseAttributeNames: false, decodeEntities: true },
  )
  parser.end(html)
  return collectPage(results)
}

function collectPage(results: readonly OpenResult[]): DuckDuckGoPage {
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
      title: plainText(result.text.link) || url,
      url,
      snippet: plainText(result.text.snippet),
      date: isoDate(DATE_TEXT.exec(result.text.extras ?? '')?.[0]),
      displayUrl: plainText(result.text.url),
    })
  }
  return page
}
