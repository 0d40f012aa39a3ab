import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { extractReadable, pageFromBody } from './index.js'

// Extraction on pages written for each case: links, metadata, limits, markup too complex for a DOM, and bodies
// that are not HTML. The third-party corpora are in extract.test.ts.
describe('extractReadable', () => {
  const article = (
    inner: string,
    head = '',
  ) => `<!DOCTYPE html><html lang="en"><head><title>Doc title</title>${head}</head><body>
<nav><a href="/">Home</a><a href="/about">About</a></nav>
<article><h1>Heading one</h1>
${inner}
</article>
<footer><a href="/privacy">Privacy</a></footer>
<script>var tracking = "should never appear"</script><style>.x{color:red}</style>
</body></html>`
  const paragraphs = Array.from(
    { length: 6 },
    (_, i) =>
      `<p>Paragraph ${i} talks at length about cancellation, structured concurrency and why tasks must not outlive their scope, with enough words to count as content.</p>`,
  ).join('\n')

  it('keeps headings, lists, code blocks and links; drops scripts, styles and navigation', () => {
    const page = extractReadable(
      article(`${paragraphs}
<h2>Steps</h2>
<ul><li>First <a href="/docs/first">step</a></li><li>Second step</li></ul>
<ol><li>One</li><li>Two</li></ol>
<pre><code class="language-rust">fn main() {
    println!("hi");
}</code></pre>
<pre class="lang-python">print("x")</pre>`),
      { url: 'https://blog.example/posts/1' },
    )
    expect(page.markdown).toContain('## Steps')
    expect(page.markdown).toMatch(/^- First \[step\]\(https:\/\/blog\.example\/docs\/first\)$/m)
    expect(page.markdown).toMatch(/^1\. One\n2\. Two$/m)
    expect(page.markdown).toContain('```rust\nfn main() {\n    println!("hi");\n}\n```')
    expect(page.markdown).toContain('```python\nprint("x")\n```')
    expect(page.markdown).not.toMatch(/tracking|color:red|Privacy|About/)
    expect(page.text).not.toContain('should never appear')
    expect(page.links.map((l) => l.url)).toEqual(['https://blog.example/docs/first'])
  })

  it('resolves the URLs Readability writes itself: the src of a lazy image, from its data-src', () => {
    const page = extractReadable(article(`${paragraphs}<p><img data-src="/img/diagram.png" alt="Diagram"></p>`), {
      url: 'https://blog.example/posts/1',
    })
    expect(page.markdown).toContain('![Diagram](https://blog.example/img/diagram.png)')
  })

  it('gives each link its anchor text and surrounding context, deduplicated by URL', () => {
    const page = extractReadable(
      article(`${paragraphs}
<p>The runtime is described in <a href="https://tokio.rs/tokio/tutorial">the Tokio tutorial</a>, which every newcomer should read before writing a server.</p>
<p>See <a href="https://tokio.rs/tokio/tutorial#setup">again</a> and <a href="#footnote-1">a footnote</a> and <a href="mailto:a@b.c">mail</a> and <a href="javascript:void(0)">js</a>.</p>`),
      { url: 'https://blog.example/posts/1' },
    )
    expect(page.links).toEqual([
      {
        url: 'https://tokio.rs/tokio/tutorial',
        text: 'the Tokio tutorial',
        context:
          'The runtime is described in the Tokio tutorial, which every newcomer should read before writing a server.',
      },
    ])
  })

  it('trims long link context to whole words around the anchor', () => {
    const filler = 'word '.repeat(80)
    const page = extractReadable(
      article(`${paragraphs}<p>${filler}<a href="https://x.example/">anchor</a> ${filler}</p>`),
      { url: 'https://blog.example/' },
    )
    const context = page.links[0]?.context ?? ''
    expect(context).toMatch(/^…word .* anchor word .*word…$/)
    expect(context.length).toBeLessThan(300)
  })

  it.each([
    [
      'article:published_time',
      '<meta property="article:published_time" content="2024-05-01T10:00:00+02:00">',
      '2024-05-01T08:00:00.000Z',
    ],
    [
      'JSON-LD datePublished',
      '<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"NewsArticle","datePublished":"2023-02-03T04:05:06Z"}]}</script>',
      '2023-02-03T04:05:06.000Z',
    ],
    [
      'a floating date-time (read as UTC)',
      '<meta name="date" content="2022-07-08 09:10:11">',
      '2022-07-08T09:10:11.000Z',
    ],
  ])('reads the published date from %s', (_name, head, iso) => {
    expect(extractReadable(article(paragraphs, head), { url: 'https://blog.example/' }).publishedAt).toBe(iso)
  })

  it('reads the published date from <time datetime> when there is no metadata', () => {
    const page = extractReadable(
      article(`<p class="meta"><time datetime="2021-09-10T12:00:00Z">Sept 10</time></p>${paragraphs}`),
      { url: 'https://blog.example/' },
    )
    expect(page.publishedAt).toBe('2021-09-10T12:00:00.000Z')
  })

  it('prefers the more trusted source of a date and language, wherever each stands in the page', () => {
    const metas = [
      '<meta name="pubdate" content="2020-01-01T00:00:00Z">',
      '<meta name="date" content="">',
      '<meta name="date" content="2019-01-01T00:00:00Z">',
      '<meta name="article:published_time" content="2021-03-04T00:00:00Z">',
      '<meta http-equiv="Content-Language" content="pt_BR">',
    ]
    const read = (head: string[]) =>
      extractReadable(article(paragraphs, head.join('')).replace(' lang="en"', ''), { url: 'https://b.example/' })
    expect(read(metas).publishedAt).toBe('2021-03-04T00:00:00.000Z')
    expect(read(metas).lang).toBe('pt-BR')
    // The first name="date" is empty: as a CSS query would, the lookup does not go on to the second.
    expect(read(metas.slice(0, 3)).publishedAt).toBe('2020-01-01T00:00:00.000Z')
  })

  it('reads <time datetime> in order: a pubdate, then one in an <article>, then the first', () => {
    const time = (iso: string, attrs = '') => `<p><time${attrs} datetime="${iso}">then</time></p>`
    const inArticle = time('2021-02-02T00:00:00Z')
    const outside = time('2021-01-01T00:00:00Z')
    const read = (page: string) => extractReadable(page, { url: 'https://b.example/' }).publishedAt
    const withOutside = (page: string) => page.replace('<body>', `<body>${outside}`)
    expect(read(withOutside(article(`${inArticle}${paragraphs}`)))).toBe('2021-02-02T00:00:00.000Z')
    expect(read(withOutside(article(`${inArticle}${paragraphs}${time('2021-03-03T00:00:00Z', ' pubdate')}`)))).toBe(
      '2021-03-03T00:00:00.000Z',
    )
    expect(read(withOutside(article(paragraphs).replace(/<\/?article>/g, '')))).toBe('2021-01-01T00:00:00.000Z')
  })

  it('ignores a date it cannot trust', () => {
    expect(
      extractReadable(article(paragraphs, '<meta property="article:published_time" content="yesterday-ish">'), {
        url: 'https://b.example/',
      }).publishedAt,
    ).toBeNull()
  })

  it('falls back to the page body, minus chrome, when there is no article', () => {
    const page = extractReadable(
      '<html><head><title>Tiny</title></head><body><header>Site</header><nav><a href="/a">A</a></nav><p>Just one <a href="https://x.example/y">short</a> line.</p><footer>foot</footer></body></html>',
      {
        url: 'https://t.example/',
      },
    )
    expect(page.title).toBe('Tiny')
    expect(page.readerable).toBe(false)
    expect(page.text).toBe('Just one short line.')
    expect(page.links).toEqual([{ url: 'https://x.example/y', text: 'short', context: 'Just one short line.' }])
  })

  it('keeps finalUrl apart from url and resolves links against the final URL', () => {
    const page = extractReadable(article(`${paragraphs}<p><a href="next">next page</a></p>`), {
      url: 'https://short.example/x',
      finalUrl: 'https://blog.example/posts/a/',
    })
    expect(page).toMatchObject({ url: 'https://short.example/x', finalUrl: 'https://blog.example/posts/a/' })
    expect(page.links[0]?.url).toBe('https://blog.example/posts/a/next')
  })

  it('never throws on arbitrary markup', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (html) => {
        const page = extractReadable(html, { url: 'https://x.example/' })
        expect(typeof page.markdown).toBe('string')
        expect(Array.isArray(page.links)).toBe(true)
      }),
      { numRuns: 200 },
    )
  })
})

describe('extractReadable on pages too complex for a DOM', () => {
  const nested = (depth: number) =>
    `<html><head><title>Deep</title></head><body>${'<div>'.repeat(depth)}<p>Deep text with <a href="/next">a link</a>.</p>${'</div>'.repeat(depth)}</body></html>`

  it('degrades 1,200 nested <div>s (13 KB) to plain text, saying why', () => {
    const page = extractReadable(nested(1200), { url: 'https://deep.example/' })
    expect(page.degraded).toBe('page too complex for readable extraction: 1,204 levels of nesting (limit 256)')
    expect(page).toMatchObject({ title: 'Deep', text: 'Deep text with a link.', readerable: false })
    expect(page.links).toEqual([{ url: 'https://deep.example/next', text: 'a link', context: 'a link' }])
  })

  it('degrades a 3.9 MB page of 100,000 links and keeps its first 1,000 links', () => {
    const html = `<html><body><article>${Array.from({ length: 100_000 }, (_, i) => `<a href="/p/${i}">link number ${i}</a> `).join('')}</article></body></html>`
    const page = extractReadable(html, { url: 'https://links.example/' })
    expect(page.degraded).toBe('page too complex for readable extraction: 100,003 elements (limit 40,000)')
    expect(page.links).toHaveLength(1000)
    expect(page.links[999]).toEqual({
      url: 'https://links.example/p/999',
      text: 'link number 999',
      context: 'link number 999',
    })
    expect(page.text).toMatch(/^link number 0 link number 1 .* link number 99999$/)
  })

  // Under the depth, element and link bounds, and a minute of Readability each before the bounds below.
  it('degrades a small page of repeated deep nesting at once, saying why', () => {
    const chain = (i: number) => `${'<div>'.repeat(250)}<p>Paragraph ${i}.</p>${'</div>'.repeat(250)}`
    const html = `<html><body>${Array.from({ length: 150 }, (_, i) => chain(i)).join('')}</body></html>`
    const page = extractReadable(html, { url: 'https://deep.example/' })
    expect(page.degraded).toBe(
      "page too complex for readable extraction: total nesting depth 4,819,203, every element's depth summed (limit 500,000)",
    )
    expect(page.text).toMatch(/^Paragraph 0\.\n\nParagraph 1\.\n\n.*Paragraph 149\.$/s)
  })

  it('degrades a page of 100,000 attributes at once, saying why', () => {
    const attributes = Array.from({ length: 100_000 }, (_, i) => `data-a${i}="v"`).join(' ')
    const page = extractReadable(`<html><body><div ${attributes}>Text.</div></body></html>`, {
      url: 'https://attrs.example/',
    })
    expect(page.degraded).toBe('page too complex for readable extraction: 100,000 attributes (limit 60,000)')
    expect(page.text).toBe('Text.')
  })

  it.each([
    ['links', { maxLinks: 5 }, 'page too complex for readable extraction: 10 links (limit 5)'],
    ['elements', { maxElements: 11 }, 'page too complex for readable extraction: 12 elements (limit 11)'],
    [
      'total depth',
      { maxTotalDepth: 20 },
      "page too complex for readable extraction: total nesting depth 22, every element's depth summed (limit 20)",
    ],
    ['attributes', { maxAttributes: 9 }, 'page too complex for readable extraction: 10 attributes (limit 9)'],
  ])('applies a caller limit on %s', (_name, limits, reason) => {
    const html = `<p>${Array.from({ length: 10 }, (_, i) => `<a href="/${i}">${i}</a>`).join(' ')}</p><p>end</p>`
    expect(extractReadable(html, { url: 'https://x.example/', limits }).degraded).toBe(reason)
  })

  it('reads a deep page readably when the caller lifts the depth limit', () => {
    const page = extractReadable(nested(300), { url: 'https://deep.example/', limits: { maxDepth: 400 } })
    expect(page.degraded).toBeUndefined()
    expect(page.markdown).toBe('Deep text with [a link](https://deep.example/next).')
  })

  it('degrades a feed too complex to parse as XML', () => {
    const feed = `<rss><channel><title>F</title>${'<x>'.repeat(300)}</channel></rss>`
    const page = pageFromBody(feed, 'application/rss+xml', { url: 'https://feed.example/rss' })
    expect(page.degraded).toBe('feed too complex to read as items: 302 levels of nesting (limit 256)')
  })
})

describe('pageFromBody', () => {
  const opts = { url: 'https://api.example/item', finalUrl: 'https://api.example/item' }

  it('renders JSON as a fenced block and lifts a title and its URLs', () => {
    const page = pageFromBody(
      '{"title":"Item 7","links":["https://a.example/x.","see https://b.example/y)"]}',
      'application/json',
      opts,
    )
    expect(page.title).toBe('Item 7')
    expect(page.markdown).toBe(
      '```json\n{\n  "title": "Item 7",\n  "links": [\n    "https://a.example/x.",\n    "see https://b.example/y)"\n  ]\n}\n```',
    )
    expect(page.links.map((l) => l.url)).toEqual(['https://a.example/x', 'https://b.example/y'])
  })

  it('keeps markdown as it is, with its heading as title and its links', () => {
    const md = '# Release notes\n\nFixed [the bug](https://github.com/o/r/issues/1) and [docs](/docs).\n'
    const page = pageFromBody(md, 'text/markdown', opts)
    expect(page).toMatchObject({
      title: 'Release notes',
      markdown: md.trim(),
      text: md.trim(),
      excerpt: 'Fixed [the bug](https://github.com/o/r/issues/1) and [docs](/docs).',
    })
    expect(page.links.map((l) => [l.url, l.text])).toEqual([
      ['https://github.com/o/r/issues/1', 'the bug'],
      ['https://api.example/docs', 'docs'],
    ])
  })

  it('escapes plain text so it stays literal in markdown', () => {
    const page = pageFromBody('Use *args and # comments\nhttps://example.com/a_(b)', 'text/plain', opts)
    expect(page.markdown).toBe('Use \\*args and \\# comments\nhttps://example.com/a\\_(b)')
    expect(page.links[0]?.url).toBe('https://example.com/a_(b)')
  })

  it('lists the items of an RSS feed', () => {
    const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>Ferris Weekly</title><language>en</language>
<item><title>Pinning</title><link>https://ferris.example/pinning</link><description>Why Pin exists.</description></item>
<item><title>io_uring</title><link>https://ferris.example/io-uring</link></item></channel></rss>`
    const page = pageFromBody(rss, 'application/rss+xml', opts)
    expect(page.title).toBe('Ferris Weekly')
    expect(page.lang).toBe('en')
    expect(page.markdown).toBe(
      '# Ferris Weekly\n\n- [Pinning](https://ferris.example/pinning) — Why Pin exists.\n- [io_uring](https://ferris.example/io-uring)',
    )
    expect(page.links.map((l) => l.url)).toEqual(['https://ferris.example/pinning', 'https://ferris.example/io-uring'])
  })

  it('lists the entries of an Atom feed', () => {
    const atom = `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Releases</title>
<entry><title>v1.2.0</title><link href="https://github.com/o/r/releases/tag/v1.2.0"/><summary>Bug fixes</summary></entry></feed>`
    const page = pageFromBody(atom, 'application/atom+xml', opts)
    expect(page.title).toBe('Releases')
    expect(page.links).toEqual([
      { url: 'https://github.com/o/r/releases/tag/v1.2.0', text: 'v1.2.0', context: 'v1.2.0 Bug fixes' },
    ])
  })

  it('sends HTML through extractReadable', () => {
    expect(
      pageFromBody('<html><head><title>T</title></head><body><p>x</p></body></html>', 'text/html; charset=utf-8', opts)
        .title,
    ).toBe('T')
  })
})
