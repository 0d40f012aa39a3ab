import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countMarkdownWords, plainText } from './_text.js'

// The definition countMarkdownWords keeps without building a string: words of the plain text.
function wordsOfPlainText(text: string): number {
  let words = 0
  let inWord = false
  for (const ch of plainText(text)) {
    const cp = ch.codePointAt(0)!
    const unspaced =
      /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(ch) && cp !== 0x30fc && cp !== 0x30fb
    if (unspaced) {
      words += 0.5
      inWord = false
    } else if (/[\p{L}\p{N}\p{M}]/u.test(ch)) {
      if (!inWord) words++
      inWord = true
    } else inWord = false
  }
  return words
}

describe('countMarkdownWords', () => {
  it('counts words, half a word per Chinese character, and skips link targets', () => {
    const md = 'See the [Fetch API](https://developer.mozilla.org/en-US/docs/Web/API/Fetch_API "MDN") docs. 宇航员'
    expect(countMarkdownWords(md, 0, md.length)).toBe(5 + 1.5)
  })

  it('equals the word count of the plain text', () => {
    const pieces = [
      'word ',
      'two words',
      '[a](b)',
      '![x](y "t")',
      '](',
      '(',
      ')',
      '中文',
      'ｶﾀ',
      '々',
      '😀',
      ' ',
      '\n',
      '_',
      '`',
    ]
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        const md = parts.join('')
        expect(countMarkdownWords(md, 0, md.length)).toBe(wordsOfPlainText(md))
      }),
      { numRuns: 1000 },
    )
  })
})
