import { Readability } from '@mozilla/readability'
import { describe, expect, it } from 'vitest'
import { type El, parseDocument } from './_dom.js'
import { elementsByTag, hasNonBlankText, readArticle } from './_readability.js'

const readability = (html: string) =>
  new Readability<El>(parseDocument(html) as never, {
    serializer: (el) => el as unknown as El,
    keepClasses: true,
  }).parse()
const summary = (article: ReturnType<typeof readability>) =>
  article && { title: article.title, text: article.textContent, excerpt: article.excerpt, byline: article.byline }

const long = `<html><head><title>Loops</title></head><body><nav><a href="/">Home</a></nav><article><h1>Loops</h1>${Array.from(
  { length: 8 },
  (_, i) => `<p>Paragraph ${i}: a future dropped by select! in a loop loses what it had read, so keep it outside.</p>`,
).join('')}</article><footer>Footer text</footer></body></html>`
// Under Readability's 500 characters: it restores the body and tries again with looser rules, three times.
const short =
  '<html><head><title>Short</title></head><body><div class="sidebar"><p>Only a line of text.</p></div><div><p>And one more.</p></div></body></html>'

describe('readArticle', () => {
  it('reads a page as Readability does, without keeping a copy of its body', () => {
    const document = parseDocument(long)
    expect(summary(readArticle(document, long))).toEqual(summary(readability(long)))
    // The body is itself again afterwards.
    expect(Object.getOwnPropertyDescriptor(document.body, 'innerHTML')).toBeUndefined()
  })

  it('reads a page that needs a second attempt as Readability does, from the source again', () => {
    const expected = summary(readability(short))
    expect(expected?.text).toContain('Only a line of text.')
    expect(summary(readArticle(parseDocument(short), short))).toEqual(expected)
  })

  it('reads bylines, empty blocks and hidden elements as Readability does (its checks are replaced by cheaper ones)', () => {
    const para = (i: number) =>
      `<p>Paragraph ${i}: the scheduler parks a task that waits on a channel, and wakes it when a value arrives there.</p>`
    const body = (parts: string) => `<html><head><title>Channels</title></head><body>${parts}</body></html>`
    const pages = [
      // A byline found by `rel`, by `itemprop` (with a name inside), by class; one too long to be a byline.
      body(
        `<article><a rel="author" href="/a">Ada Lovelace</a>${para(1)}${para(2)}${para(3)}${para(4)}${para(5)}</article>`,
      ),
      body(
        `<article><div itemprop="author"><span itemprop="name">Grace Hopper</span> wrote this</div>${para(1)}${para(2)}${para(3)}${para(4)}</article>`,
      ),
      body(
        `<div class="byline">   </div><div class="byline">${'Written by many people. '.repeat(6)}</div><article>${para(1)}${para(2)}${para(3)}${para(4)}</article>`,
      ),
      // Empty blocks: white space only (non-breaking space and U+2028 included), breaks and rules, comments.
      body(
        `<article><div> \u00a0\u2028 </div><section><br><hr></section><div><!-- note --></div><h2> </h2><div><br>text after a break</div>${para(1)}${para(2)}${para(3)}${para(4)}</article>`,
      ),
      // Hidden by style, by `hidden`, by `aria-hidden`; Wikimedia's fallback images stay.
      body(
        `<article><div style="display: none">${para(9)}</div><div style="color: red; visibility:hidden">${para(8)}</div><div hidden>${para(7)}</div><div aria-hidden="true">${para(6)}</div><span aria-hidden="true" class="mwe-math-fallback-image-inline">x²</span><div style="color: blue">${para(1)}</div>${para(2)}${para(3)}${para(4)}</article>`,
      ),
    ]
    for (const html of pages) {
      const expected = readability(html)
      const got = readArticle(parseDocument(html), html)
      expect(summary(got)).toEqual(summary(expected))
      expect(got?.content && (got.content as unknown as El).innerHTML).toBe(
        expected?.content && (expected.content as unknown as El).innerHTML,
      )
    }
    expect(summary(readability(pages[0]!))?.byline).toBe('Ada Lovelace')
    expect(summary(readability(pages[1]!))?.byline).toBe('Grace Hopper')
  })

  it('returns null where Readability throws or finds nothing', () => {
    expect(readArticle(parseDocument('<html><body></body></html>'), '<html><body></body></html>')).toBeNull()
  })
})

describe('hasNonBlankText', () => {
  it("answers what `textContent.trim() !== ''` answers, for every element of a varied document", () => {
    const html =
      '<html><head><title> </title><style>p { }</style></head><body><div id="a"> \u00a0<span>\u2028\ufeff</span><!-- comment text --></div><div><p>\t</p><p> x </p></div><ul><li></li><li><b><i> deep </i></b></li></ul><template><p>in a template</p></template><script> var a </script><svg><title>t</title></svg><pre>\n\n</pre><div><br><hr></div></body></html>'
    const document = parseDocument(html)
    const all = [document.documentElement, ...Array.from(document.documentElement.querySelectorAll('*'))]
    expect(all.length).toBeGreaterThan(20)
    const answers = all.map((el) => hasNonBlankText(el as never))
    expect(answers).toEqual(all.map((el) => (el.textContent ?? '').trim() !== ''))
    expect(answers).toContain(true)
    expect(answers).toContain(false)
  })
})

describe('elementsByTag', () => {
  it('finds what querySelectorAll finds: document order, nested matches, <template> contents left out', () => {
    const html =
      '<html><body><div id="a"><ul id="u1"><li><ol id="o1"></ol></li></ul><template><ul id="t"></ul></template></div><P id="p"><svg><title>x</title></svg></P><ol id="o2"><ul id="u2"></ul></ol></body></html>'
    const document = parseDocument(html) as unknown as Parameters<typeof elementsByTag>[0] & El
    const ids = (els: ArrayLike<unknown>) => Array.from(els as ArrayLike<El>, (el) => el.getAttribute('id'))
    for (const tags of [['ul', 'ol'], ['p'], ['template'], ['div', 'svg', 'title'], ['UL']]) {
      const expected = ids(document.querySelectorAll(tags.join(',')))
      expect(expected.length).toBeGreaterThan(0)
      expect(ids(elementsByTag(document, tags))).toEqual(expected)
    }
    const div = document.querySelector('#a') as unknown as Parameters<typeof elementsByTag>[0] & El
    expect(ids(elementsByTag(div, ['ul', 'ol']))).toEqual(ids(div.querySelectorAll('ul,ol')))
  })

  it('walks a document nested 20,000 deep without a stack (a recursive walk overflows at 10,000), and stops at the root it was given', () => {
    const depth = 20_000
    const html = `<html><body>${'<div>'.repeat(depth)}<p id="deep"></p>${'</div>'.repeat(depth)}<p id="after"></p></body></html>`
    const document = parseDocument(html) as unknown as Parameters<typeof elementsByTag>[0] & El
    const ids = (els: readonly unknown[]) => els.map((el) => (el as El).getAttribute('id'))
    expect(ids(elementsByTag(document, ['p']))).toEqual(['deep', 'after'])
    const deep = document.querySelector('p#deep') as unknown as Parameters<typeof elementsByTag>[0]
    const inner = deep.parentElement!
    expect(ids(elementsByTag(inner, ['p']))).toEqual(['deep'])
  })
})
