import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { ADVERSARIAL_TEXTS, measureGrowth, LINEAR_GROWTH_LIMIT } from '@search-layer/testkit'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type HtmlShape, htmlToText, measureHtml, measureHtmlForReading, withoutDeadText } from './_html-scan.js'
import { DEFAULT_EXTRACT_LIMITS } from './extract.js'

describe('measureHtmlForReading', () => {
  const strip = (html: string) => withoutDeadText(html, measureHtmlForReading(html).deadText)

  it('finds script and style text for the DOM to skip, keeping the tags and the shape', () => {
    const html =
      '<html><head><style>.a{color:red}</style><script src="x.js"></script><script>var a = "<p>not markup</p>"</script></head><body><div>Text</div><SCRIPT type="module">go()</SCRIPT ></body></html>'
    const { shape } = measureHtmlForReading(html)
    expect(shape).toEqual(measureHtml(html))
    expect(strip(html)).toBe(
      '<html><head><style></style><script src="x.js"></script><script></script></head><body><div>Text</div><SCRIPT type="module"></SCRIPT ></body></html>',
    )
  })

  it('keeps JSON-LD, text inside <p>, <pre> and <article> (isProbablyReaderable weighs it) and unclosed scripts', () => {
    const kept = [
      '<script type="application/ld+json">{"datePublished":"2024-01-02"}</script>',
      "<script type='application/ld+json'>{}</script>",
      '<p>Lead <script>inline()</script> text</p>',
      '<pre><style>.x{}</style></pre>',
      '<article><div><script>more()</script></div></article>',
      '<!-- <script>commented()</script> -->',
      '<script>never closed',
    ]
    for (const html of kept) expect(strip(html)).toBe(html)
    expect(strip('<p>a</p><script>after()</script>')).toBe('<p>a</p><script></script>')
  })
})

describe('measureHtml', () => {
  it.each([
    [
      'nested divs',
      `${'<div>'.repeat(1200)}x${'</div>'.repeat(1200)}`,
      { maxDepth: 1200, elements: 1200, links: 0, totalDepth: 720_600, attributes: 0 },
    ],
    [
      'unclosed nested divs',
      '<div>'.repeat(500),
      { maxDepth: 500, elements: 500, links: 0, totalDepth: 125_250, attributes: 0 },
    ],
    ['siblings', '<p>a</p><p>b</p><p>c</p>', { maxDepth: 1, elements: 3, links: 0, totalDepth: 3, attributes: 0 }],
    [
      'implied </p> and </li>',
      '<p>a<p>b<ul><li>x<li>y<li>z</ul>',
      { maxDepth: 2, elements: 6, links: 0, totalDepth: 9, attributes: 0 },
    ],
    [
      'void and self-closed',
      '<div><br><img src=x><hr/><x-y/></div>',
      { maxDepth: 1, elements: 5, links: 0, totalDepth: 9, attributes: 1 },
    ],
    [
      'links',
      '<a href="/a">a</a><a name=x>b</a><a\nhref=/c>c</a>',
      { maxDepth: 1, elements: 3, links: 2, totalDepth: 3, attributes: 3 },
    ],
    [
      'markup in script and comments',
      '<script>"<div><div>"</script><!-- <div><div> -->',
      { maxDepth: 1, elements: 1, links: 0, totalDepth: 1, attributes: 0 },
    ],
    [
      'attributes, quoted values skipped',
      '<div a="x y" b = \'z\' c=d\ne/><p hidden>t</p>',
      { maxDepth: 1, elements: 2, links: 0, totalDepth: 2, attributes: 6 },
    ],
    [
      '> inside a quoted attribute',
      '<div title="a > b"><span>x</span></div>',
      { maxDepth: 2, elements: 2, links: 0, totalDepth: 3, attributes: 1 },
    ],
  ])('%s', (_name, html, shape) => {
    expect(measureHtml(html)).toEqual(shape)
  })

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('<', '>', '/', 'a', 'div', ' ', '"', "'", '=', '!--', 'href') }),
        (html) => {
          const shape = measureHtml(html)
          expect(shape.maxDepth).toBeLessThanOrEqual(shape.elements)
          // Void elements sit one below the deepest open element without counting in maxDepth.
          expect(shape.totalDepth).toBeLessThanOrEqual(shape.elements * (shape.maxDepth + 1))
        },
      ),
    )
  })
})

describe('htmlToText', () => {
  it('keeps visible text in paragraphs, the title and the links, and drops scripts, styles and the head', () => {
    const scanned = htmlToText(
      '<html><head><title>The &amp; title</title><style>p{}</style></head><body><p>One <b>two</b></p>' +
        '<script>var x = "<p>no</p>"</script><div>Three<br>four <a href="/x?a=1&amp;b=2">a link</a></div></body></html>',
    )
    expect(scanned.title).toBe('The & title')
    expect(scanned.text).toBe('One two\n\nThree\nfour a link')
    expect(scanned.anchors).toEqual([{ href: '/x?a=1&b=2', text: 'a link' }])
  })

  it("decodes references with core's decoder: no-break spaces become spaces, · • ™ are decoded", () => {
    const scanned = htmlToText('<p>A&nbsp;&middot;&nbsp;B &bull; C&trade; &#x4E2D;</p><a href="/a&nbsp;b">x&nbsp;y</a>')
    expect(scanned.text).toBe('A · B • C™ 中\n\nx y')
    expect(scanned.anchors).toEqual([{ href: '/a b', text: 'x y' }])
  })

  it('keeps the first 1,000 links only', () => {
    const html = Array.from({ length: 1500 }, (_, i) => `<a href="/p/${i}">${i}</a>`).join(' ')
    const scanned = htmlToText(html)
    expect(scanned.links).toBe(1500)
    expect(scanned.anchors).toHaveLength(1000)
  })
})

describe('the default extraction limits against real pages', () => {
  // Both corpora, copied into the repo with their licences (test/fixtures/README.md).
  const FIXTURES = fileURLToPath(new URL('../test/fixtures/', import.meta.url))

  /** Every Readability page (`source.html.gz`) and article-extraction page under `root`. */
  function readPages(root: string): string[] {
    const readability = join(root, 'readability', 'test-pages')
    const articles = join(root, 'article-extraction', 'html')
    return [
      ...readdirSync(readability).map((name) =>
        gunzipSync(readFileSync(join(readability, name, 'source.html.gz'))).toString('utf8'),
      ),
      ...readdirSync(articles).map((name) => gunzipSync(readFileSync(join(articles, name))).toString('utf8')),
    ]
  }

  function expectWithinLimits(pages: string[]) {
    const shapes = pages.map(measureHtml)
    const most = (key: keyof HtmlShape) => Math.max(...shapes.map((shape) => shape[key]))
    // Measured on the whole corpora: depth 51, elements 9,888, links 3,859, total depth 120,183, attributes
    // 13,949; the limits sit about 4 times above.
    expect(most('maxDepth')).toBeLessThan(DEFAULT_EXTRACT_LIMITS.maxDepth / 4)
    expect(most('totalDepth')).toBeLessThan(DEFAULT_EXTRACT_LIMITS.maxTotalDepth / 4)
    expect(most('attributes')).toBeLessThan(DEFAULT_EXTRACT_LIMITS.maxAttributes / 4)
    expect(most('elements')).toBeLessThan(DEFAULT_EXTRACT_LIMITS.maxElements / 4)
    expect(most('links')).toBeLessThan(DEFAULT_EXTRACT_LIMITS.maxLinks / 2)
  }

  it('never trip on the 311 pages of the Readability and article-extraction corpora', () => {
    const pages = readPages(FIXTURES)
    expect(pages.length).toBe(311)
    expectWithinLimits(pages)
  })
})

// Broken markup anyone can serve; the figures are the bench's, the ratio here only tells linear from quadratic.
describe('the scan is linear on broken markup', { timeout: 120_000 }, () => {
  it.each([
    'unclosed tags',
    'unclosed <a',
    'unclosed <pre>',
    'unclosed <!--',
    'many <a openers in one tag',
    'many href values in one tag',
    'unterminated attribute quotes',
    'attribute values across lines',
    'nested <',
    'unclosed <p',
    'unclosed <pre><code',
  ])('%s', (name) => {
    const growth = measureGrowth(ADVERSARIAL_TEXTS[name]!, htmlToText, { n: 2000, retryAbove: LINEAR_GROWTH_LIMIT })
    expect(growth.ratio, JSON.stringify(growth)).toBeLessThan(LINEAR_GROWTH_LIMIT)
  })
})
