import { ADVERSARIAL_TEXTS, measureGrowth } from '@search-layer/testkit'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { htmlToTextByRegex } from '../test/html-text-regex-reference.js'
import { htmlToText } from './_html-text.js'

const PIECES = [
  '<p>',
  '</p>',
  '<a href="https://e.com/x" rel="nofollow">',
  "<a href='http://e.com/y'>",
  '<a class="x" href="https://e.com/z?a=1&amp;b=2">',
  '</a>',
  '</A>',
  '<pre>',
  '<pre class="x">',
  '<code>',
  '</code>',
  '</pre>',
  '<i>',
  '</i>',
  '<em>',
  '<b>',
  '</strong>',
  '<br>',
  '<br/>',
  '<img src="https://e.com/i.png" alt="i">',
  '<',
  '>',
  'text',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '&amp;',
  '&#x27;',
  '&lt;',
  '中文',
]
const html = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((parts) => parts.join(''))

describe('htmlToText', { timeout: 120_000 }, () => {
  it('gives what the regex version gave on HN/V2EX-like HTML', () => {
    fc.assert(
      fc.property(html, (text) => {
        expect(htmlToText(text)).toBe(htmlToTextByRegex(text))
      }),
      { numRuns: 4000 },
    )
  })

  it.each(['unclosed tags', 'unclosed <a', 'unclosed <pre>', 'spaces without newline'])('is linear on %s', (name) => {
    const growth = measureGrowth(ADVERSARIAL_TEXTS[name]!, htmlToText, { n: 2000, retryAbove: 8 })
    expect(growth.ratio, JSON.stringify(growth)).toBeLessThan(8)
  })
})
