import { Readability } from '@mozilla/readability'
import { describe, expect, it } from 'vitest'
import { type El, parseDocument } from './_dom.js'
import { elementsByTag, readArticle } from './_readability.js'

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

  it('returns null where Readability throws or finds nothing', () => {
    expect(readArticle(parseDocument('<html><body></body></html>'), '<html><body></body></html>')).toBeNull()
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
