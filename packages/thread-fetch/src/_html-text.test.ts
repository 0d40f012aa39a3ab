import { ADVERSARIAL_TEXTS, measureGrowth, LINEAR_GROWTH_LIMIT } from '@search-layer/testkit'
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

// Fragments of the tags the scanners look for, so the random texts hold the broken and odd tags the patterns
// backtracked over: attributes in any order and case, quotes left open, values across lines, stray `<` and `>`.
const FRAGMENTS = [
  '<a ',
  '<A\n',
  '<a',
  '<img ',
  '<IMG\t',
  'href',
  'HRef',
  'src',
  'xhref',
  '=',
  ' = ',
  '"',
  "'",
  'x',
  ' ',
  '\n',
  '\u2028',
  '\u00a0',
  '>',
  '<',
  '<<',
  '</a>',
  '</A >',
  '<pre',
  '<PRE>',
  '<code',
  '</code>',
  ' </CODE>',
  '</pre>',
  '<p',
  '</p',
  '<br',
  '/>',
  '<b>',
  '</em>',
  '&amp;',
  '&#39;',
]
const brokenHtml = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 30 }).map((parts) => parts.join(''))

describe('htmlToText', { timeout: 120_000 }, () => {
  it('gives what the regex version gave on HN/V2EX-like HTML', () => {
    fc.assert(
      fc.property(html, (text) => {
        expect(htmlToText(text)).toBe(htmlToTextByRegex(text))
      }),
      { numRuns: 4000 },
    )
  })

  it('gives what the regex version gave on broken and unfinished tags', () => {
    fc.assert(
      fc.property(brokenHtml, (text) => {
        expect(htmlToText(text)).toBe(htmlToTextByRegex(text))
      }),
      { numRuns: 4000 },
    )
  })

  it.each([
    [
      '<p>a <a href="https://e.com/x" rel="nofollow">e.com</a> and <A HREF = \'https://e.com/y\'>y</A></p>',
      'a [e.com](https://e.com/x) and [y](https://e.com/y)',
    ],
    ['<a class="x"\nhref="https://e.com/z">z</a>', '[z](https://e.com/z)'],
    ['<a href="x>y">t</a>', '[t](x>y)'],
    // The first href's value runs to its quote past `>`, leaving no `</a>` after the tag: the second one matches.
    ['<a href="x href=\'y\'></a>z" >', 'yz" >'],
    ['<pre><code>a <b>c</b>\n</code> </pre>', '```\na c\n\n```'],
    ['<pre><code</pre>', '```\n<code\n```'],
    ['<img src="https://e.com/i.png">', 'https://e.com/i.png'],
    ['<a href="', '<a href="'],
    // Core's decoder: the common named references beyond the basic five, numeric ones of at most 6 hex or 7
    // decimal digits, never a lone surrogate.
    ['a &mdash; b&hellip; &#x0000041; &#xD800;', 'a — b… &#x0000041; &#xD800;'],
  ])('reads %j as %j', (input, text) => {
    expect(htmlToText(input)).toBe(text)
    expect(htmlToTextByRegex(input)).toBe(text)
  })

  it.each([
    'unclosed tags',
    'unclosed <a',
    'unclosed <pre>',
    'spaces without newline',
    'many <a openers in one tag',
    'many href values in one tag',
    'unterminated attribute quotes',
    'attribute values across lines',
    'nested <',
    'unclosed <p',
    'unclosed <pre><code',
  ])('is linear on %s', (name) => {
    const growth = measureGrowth(ADVERSARIAL_TEXTS[name]!, htmlToText, { n: 2000, retryAbove: LINEAR_GROWTH_LIMIT })
    expect(growth.ratio, JSON.stringify(growth)).toBeLessThan(LINEAR_GROWTH_LIMIT)
  })
})
