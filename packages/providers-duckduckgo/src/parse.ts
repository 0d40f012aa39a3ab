import { httpUrl, isoDate, plainText } from '@search-layer/core'
import { parseHTML } from 'linkedom'

// Parses html.duckduckgo.com/html/ pages. linkedom is the DOM page-fetch already ships (same pinned version): CSS
// selectors over a forgiving HTML5 parser, so markup drift in attributes or whitespace does not break the parse.

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

/** Organic results of a results page, in page order; ads are skipped and counted. */
export function parseDuckDuckGoPage(html: string): DuckDuckGoPage {
  const { document } = parseHTML(html)
  const page: DuckDuckGoPage = { hits: [], ads: 0, dropped: 0 }
  for (const node of document.querySelectorAll('div.result')) {
    const link = node.querySelector('a.result__a')
    const href = link?.getAttribute('href')
    const isAd =
      node.classList.contains('result--ad') ||
      node.querySelector('.badge--ad') !== null ||
      /duckduckgo\.com\/y\.js/.test(href ?? '')
    if (isAd) {
      page.ads++
      continue
    }
    const url = unwrapDuckDuckGoUrl(href)
    if (!link || !url) {
      page.dropped++
      continue
    }
    const extras = node.querySelector('.result__extras__url')?.textContent ?? ''
    page.hits.push({
      title: plainText(link.textContent) || url,
      url,
      snippet: plainText(node.querySelector('.result__snippet')?.textContent),
      date: isoDate(DATE_TEXT.exec(extras)?.[0]),
      displayUrl: plainText(node.querySelector('.result__url')?.textContent),
    })
  }
  return page
}
