import { isoDate, plainText } from '@search-layer/core'
import { parseHTML } from 'linkedom'
import { type DuckDuckGoPage, unwrapDuckDuckGoUrl } from '../src/parse.js'

// The linkedom parser the streaming one replaced, kept as the reference it must agree with (parse.test.ts): a DOM
// and CSS selectors, the plainest statement of what a results page holds.

const DATE_TEXT = /\d{4}-\d{2}-\d{2}(?:T[\d:.]+Z?)?/

/** Organic results of a results page, in page order; ads are skipped and counted. */
export function parseWithLinkedom(html: string): DuckDuckGoPage {
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
