import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseWithLinkedom } from '../test/parse-linkedom-reference.js'
import { isDuckDuckGoChallenge, parseDuckDuckGoPage, unwrapDuckDuckGoUrl } from './parse.js'

const page = (name: string) => readFileSync(new URL(`../test/fixtures/${name}`, import.meta.url), 'utf8')

describe('unwrapDuckDuckGoUrl', () => {
  it.each([
    [
      '//duckduckgo.com/l/?uddg=https%3A%2F%2Fen.wikipedia.org%2Fwiki%2FFoo_Fighters&rut=8701',
      'https://en.wikipedia.org/wiki/Foo_Fighters',
    ],
    ['https://duckduckgo.com/l/?uddg=https%3A%2F%2Fa.example%2Fx%3Fy%3D1%26z%3D2&rut=1', 'https://a.example/x?y=1&z=2'],
    ['/l/?uddg=http%3A%2F%2Fb.example%2F', 'http://b.example/'],
    ['https://rust-lang.org/', 'https://rust-lang.org/'],
    ['https://duckduckgo.com/y.js?ad_domain=x&u3=1', null],
    ['//duckduckgo.com/l/?rut=1', null],
    ['//duckduckgo.com/l/?uddg=javascript%3Aalert(1)', null],
    ['mailto:a@b.c', null],
    ['', null],
  ])('%s → %s', (href, url) => {
    expect(unwrapDuckDuckGoUrl(href)).toBe(url)
  })
})

describe('parseDuckDuckGoPage on recorded pages', () => {
  it('reads all ten hits of the 2026 page (direct links), with the dates beside four of them', () => {
    const { hits, ads, dropped } = parseDuckDuckGoPage(page('meka--html-results-rust-programming-language-2026.html'))
    expect([hits.length, ads, dropped]).toEqual([10, 0, 0])
    expect(hits[0]).toEqual({
      title: 'Rust Programming Language',
      url: 'https://rust-lang.org/',
      snippet:
        'Rust is a fast, reliable, and productive programming language that can run on embedded devices, web services, and more. Learn how to get started, why Rust is different, and what companies are using it in production.',
      date: null,
      displayUrl: 'rust-lang.org',
    })
    expect(hits.map((h) => h.date).filter(Boolean)).toEqual([
      '2026-02-28T12:30:00.000Z',
      '2025-07-23T00:00:00.000Z',
      '2025-05-29T00:00:00.000Z',
      '2026-04-12T00:00:00.000Z',
    ])
    // The zero-click Wikipedia box is not an organic hit.
    expect(hits.filter((h) => h.url.includes('wikipedia.org'))).toHaveLength(1)
  })

  it('unwraps every uddg redirect of the 2025 page and keeps text clean', () => {
    const { hits } = parseDuckDuckGoPage(page('lofi--html-results-foo-2025.html'))
    expect(hits).toHaveLength(10)
    expect(hits.slice(0, 3).map((h) => [h.title, h.url])).toEqual([
      ['Foo Fighters - Wikipedia', 'https://en.wikipedia.org/wiki/Foo_Fighters'],
      ['foo | Meaning & Origin - Dictionary.com', 'https://www.dictionary.com/e/tech-science/foo/'],
      [
        'FOO | definition in the Cambridge English Dictionary - Cambridge Dictionary',
        'https://dictionary.cambridge.org/us/dictionary/english/foo',
      ],
    ])
    for (const h of hits) {
      expect(h.url).not.toMatch(/duckduckgo\.com|uddg=/)
      expect(`${h.title} ${h.snippet}`).not.toMatch(/<\/?b>|&amp;|&#x27;|&quot;/)
    }
  })

  it('recognises the recorded anomaly page, and only it, as a challenge', () => {
    expect(isDuckDuckGoChallenge(page('meka--html-anomaly-captcha-rust-2026.html'))).toBe(true)
    expect(isDuckDuckGoChallenge(page('meka--html-results-rust-programming-language-2026.html'))).toBe(false)
    expect(isDuckDuckGoChallenge(page('lofi--html-results-foo-2025.html'))).toBe(false)
  })

  it('skips ads and counts them', () => {
    const html = `<div class="result results_links result--ad"><h2><a class="result__a" href="https://duckduckgo.com/y.js?ad_domain=x">Buy</a></h2></div>
      <div class="result"><h2><a class="result__a" href="https://duckduckgo.com/y.js?u3=1">Sneaky ad</a></h2></div>
      <div class="result"><h2><a class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Freal.example%2F">Real</a></h2></div>
      <div class="result"><h2><a class="result__a" href="javascript:void(0)">Broken</a></h2></div>`
    expect(parseDuckDuckGoPage(html)).toMatchObject({
      ads: 2,
      dropped: 1,
      hits: [{ title: 'Real', url: 'https://real.example/' }],
    })
  })

  it('never throws on arbitrary markup and yields only http(s) URLs', () => {
    const fragment = fc.oneof(
      fc.string(),
      fc.webUrl().map((u) => `<div class="result"><a class="result__a" href="${u}">t</a></div>`),
      fc
        .webUrl()
        .map(
          (u) =>
            `<div class="result"><a class="result__a" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(u)}">t</a></div>`,
        ),
    )
    fc.assert(
      fc.property(fc.array(fragment), (parts) => {
        for (const hit of parseDuckDuckGoPage(parts.join('')).hits) expect(hit.url).toMatch(/^https?:\/\//)
      }),
      { numRuns: 150 },
    )
  })
})

describe('the streaming parser agrees with the DOM one it replaced', () => {
  it.each([
    'meka--html-results-rust-programming-language-2026.html',
    'lofi--html-results-foo-2025.html',
    'meka--html-anomaly-captcha-rust-2026.html',
  ])('on the recorded %s', (name) => {
    expect(parseDuckDuckGoPage(page(name))).toEqual(parseWithLinkedom(page(name)))
  })

  it('on generated pages: nested and unclosed results, ads, badges, entities, scripts, stray text', () => {
    const text = fc.oneof(
      fc.constantFrom('Rust &amp; Go', 'a &lt;b&gt;', '2024-05-01', ' ', 'x'),
      fc.string({ maxLength: 8 }),
    )
    const href = fc.oneof(
      fc.webUrl(),
      fc.webUrl().map((u) => `//duckduckgo.com/l/?uddg=${encodeURIComponent(u)}&amp;rut=1`),
      fc.constantFrom('https://duckduckgo.com/y.js?ad=1', '', 'javascript:void(0)'),
    )
    const node: fc.Memo<string> = fc.memo((n) =>
      n <= 1
        ? text
        : fc.oneof(
            text,
            fc
              .tuple(
                fc.constantFrom('result', 'result result--ad', 'results', 'result  web-result'),
                fc.array(node(n - 1), { maxLength: 4 }),
                fc.boolean(),
              )
              .map(([cls, kids, close]) => `<div class="${cls}">${kids.join('')}${close ? '</div>' : ''}`),
            fc.tuple(href, node(n - 1)).map(([h, kid]) => `<a class="result__a" href="${h}">${kid}</a>`),
            fc
              .tuple(fc.constantFrom('result__snippet', 'result__url', 'result__extras__url', 'badge--ad'), node(n - 1))
              .map(([cls, kid]) => `<span class="${cls}">${kid}</span>`),
            node(n - 1).map((kid) => `<p>${kid}<br>${kid}`),
            node(n - 1).map((kid) => `<script>${kid}</script><!-- ${kid} -->`),
          ),
    )
    fc.assert(
      fc.property(fc.array(node(5), { maxLength: 6 }), (parts) => {
        const html = parts.join('')
        expect(parseDuckDuckGoPage(html)).toEqual(parseWithLinkedom(html))
      }),
      { numRuns: 400 },
    )
  })
})
