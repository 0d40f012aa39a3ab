import { measureGrowth, LINEAR_GROWTH_LIMIT } from '@search-layer/testkit'
import fc from 'fast-check'
import { Parser } from 'htmlparser2'
import { describe, expect, it } from 'vitest'
import { walkHtml } from './_html-events.js'

type Event = ['open', string, Record<string, string>] | ['text', string] | ['close']

function walked(html: string): Event[] {
  const events: Event[] = []
  walkHtml(html, {
    onopentag: (name, attributes) => events.push(['open', name, { ...attributes }]),
    ontext: (text) => events.push(['text', text]),
    onclosetag: () => events.push(['close']),
  })
  return events
}

// htmlparser2's own Parser, whose tree rules the walk keeps, with the options the page parser used it with.
function parsed(html: string): Event[] {
  const events: Event[] = []
  const parser = new Parser(
    {
      onopentag: (name, attributes) => events.push(['open', name, { ...attributes }]),
      ontext: (text) => events.push(['text', text]),
      onclosetag: () => events.push(['close']),
    },
    { lowerCaseAttributeNames: false, decodeEntities: true },
  )
  parser.end(html)
  return events
}

const TAGS = ['div', 'p', 'a', 'span', 'li', 'td', 'tr', 'table', 'svg', 'math', 'title', 'br', 'img', 'b', 'h2']
const piece = fc.oneof(
  fc.constantFrom(...TAGS).map((t) => `<${t}>`),
  fc.constantFrom(...TAGS).map((t) => `</${t}>`),
  fc.constantFrom(...TAGS).map((t) => `<${t}/>`),
  fc.constantFrom(...TAGS).map((t) => `<${t.toUpperCase()} class="x  y" href='h&amp;1' class=z>`),
  fc.constantFrom('x', ' ', '&amp;', '&lt;', '&#x27;', '&bogus;', '<', '>', '<!-- c -->', '<script>a<b></script>'),
  fc.constantFrom('<![CDATA[x]]>', '<!doctype html>', '<?xml x?>', '<div class="a', '<a href="', 'é'),
  fc.string({ maxLength: 4 }),
)

describe('walkHtml reports what htmlparser2 Parser reports', () => {
  it('on the tags whose rules differ: implied ends, void, foreign, stray and self-closing', () => {
    for (const html of [
      '<p>a<div>b</div></p></p></br><br/>',
      '<ul><li>1<li>2</ul><table><tr><td>x<td>y<tr><th>z</table>',
      '<svg><path/><title>t</title><x/></svg><x/><math><mi/></math>',
      '<select><option>a<option>b<optgroup><option>c</select>',
      '<div><span></div></span></b>',
      '<div class="result"><a class="result__a" href="x',
    ])
      expect(walked(html)).toEqual(parsed(html))
  })

  it('on generated markup', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const html = pieces.join('')
        expect(walked(html)).toEqual(parsed(html))
      }),
      { numRuns: 1000 },
    )
  })

  it('stops when asked, after the end tag that satisfied it', () => {
    let closes = 0
    const texts: string[] = []
    walkHtml('<p>a</p><p>b</p><p>c</p>', {
      onopentag: () => {},
      ontext: (text) => texts.push(text),
      onclosetag: () => closes++,
      done: () => closes === 2,
    })
    expect([closes, texts]).toEqual([2, ['a', 'b']])
  })
})

// Nesting is what made the Parser quadratic: each start tag moved the whole stack, each stray end tag searched it.
const DEEP: Record<string, (n: number) => string> = {
  'nested <div>': (n) => '<div>'.repeat(n),
  'nested <div> with stray end tags': (n) => '<div></span>'.repeat(n),
  'nested <svg>': (n) => '<svg>'.repeat(n),
  'nested <title> in <svg>': (n) => `<svg>${'<title>'.repeat(n)}`,
}

describe('walkHtml is linear', { timeout: 120_000 }, () => {
  const walk = (html: string) => walkHtml(html, { onopentag() {}, ontext() {}, onclosetag() {} })
  it.each(Object.keys(DEEP))('on %s', (name) => {
    const growth = measureGrowth(DEEP[name]!, walk, { n: 20_000, runs: 5, retryAbove: LINEAR_GROWTH_LIMIT })
    expect(growth.ratio, JSON.stringify(growth)).toBeLessThan(LINEAR_GROWTH_LIMIT)
  })
})
