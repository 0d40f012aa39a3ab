import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fencedCodeRanges, htmlCommentRanges, markInlineCode, markdownLinks, trimUrl } from './_scan.js'

// The regexes and loop the scanners replaced: same output required on every generated text.
const FENCE_RE = /^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[^\n]*$|(?![\s\S]))/gm
const COMMENT_RE = /<!--[\s\S]*?-->/g
const INLINE_CODE_RE = /`[^`\n]+`/g
const MD_LINK_RE =
  /\[([^\]\n]{0,500})\]\(\s*<?(https?:\/\/[^\s()<>]*(?:\([^\s()<>]*\)[^\s()<>]*)*)>?(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g

const rangesOf = (text: string, re: RegExp) => Array.from(text.matchAll(re), (m) => [m.index, m.index + m[0].length])

function trimUrlByRescan(url: string): string {
  let out = url
  const count = (text: string, char: string) => [...text].filter((c) => c === char).length
  for (;;) {
    const last = out.at(-1)
    if (last === undefined) return out
    if ('.,:;!?*_~\'"'.includes(last)) {
      out = out.slice(0, -1)
      continue
    }
    const pair = last === ')' ? '(' : last === ']' ? '[' : last === '}' ? '{' : undefined
    if (pair && count(out, pair) < count(out, last)) {
      out = out.slice(0, -1)
      continue
    }
    return out
  }
}

// Texts made of the pieces these scans care about, in any order.
const piecesText = (pieces: readonly string[]) =>
  fc.array(fc.constantFrom(...pieces), { maxLength: 60 }).map((parts) => parts.join(''))

const FENCE_PIECES = ['```', '````', '~~~', '``', '`', ' ', '   ', '    ', '\n', '\r', '\r\n', '\u2028', 'js', 'x', '~']
const CODE_PIECES = ['`', '``', '```', 'a', ' ', '\n', '\r', '\u2028', '#1']
const COMMENT_PIECES = ['<!--', '-->', '<!-->', '--', '-', '>', '<', '!', 'a', '\n']
const LINK_PIECES = [
  '[',
  ']',
  '(',
  ')',
  '[a]',
  '](',
  'http://e.com/',
  'https://x.org/a_',
  ' ',
  '\n',
  '"t"',
  "'t'",
  '"',
  "'",
  '<',
  '>',
  'x',
  '\t',
  'a'.repeat(499),
]
const URL_PIECES = ['a', '/', '.', ',', ')', '(', ']', '[', '}', '{', '!', '?', '"', "'", '_', '~', '*', '😀']

describe('linear scanners match the regexes they replaced', () => {
  it('fencedCodeRanges', () => {
    fc.assert(
      fc.property(piecesText(FENCE_PIECES), (text) => {
        expect(fencedCodeRanges(text)).toEqual(rangesOf(text, FENCE_RE))
      }),
      { numRuns: 3000 },
    )
  })

  it('htmlCommentRanges', () => {
    fc.assert(
      fc.property(piecesText(COMMENT_PIECES), (text) => {
        expect(htmlCommentRanges(text)).toEqual(rangesOf(text, COMMENT_RE))
      }),
      { numRuns: 3000 },
    )
  })

  it('markInlineCode', () => {
    fc.assert(
      fc.property(piecesText(CODE_PIECES), (text) => {
        const expected = new Uint8Array(text.length)
        for (const [start, end] of rangesOf(text, INLINE_CODE_RE)) expected.fill(1, start, end)
        const marks = new Uint8Array(text.length)
        markInlineCode(text, marks)
        expect(marks).toEqual(expected)
      }),
      { numRuns: 3000 },
    )
  })

  it('markdownLinks', () => {
    fc.assert(
      fc.property(piecesText(LINK_PIECES), (text) => {
        const expected = Array.from(text.matchAll(MD_LINK_RE), (m) => ({
          start: m.index,
          end: m.index + m[0].length,
          label: m[1],
          url: m[2],
        }))
        expect(markdownLinks(text)).toEqual(expected)
      }),
      { numRuns: 3000 },
    )
  })

  it('trimUrl', () => {
    fc.assert(
      fc.property(piecesText(URL_PIECES), (tail) => {
        const url = `http://e.com/${tail}`
        expect(trimUrl(url)).toBe(trimUrlByRescan(url))
      }),
      { numRuns: 3000 },
    )
  })

  it.each([
    ['a fence closed by a longer one', '```js\ncode\n`````\nafter', [[0, 16]]],
    ['an unclosed fence runs to the end', 'x\n~~~\ncode', [[2, 10]]],
    ['four spaces is not a fence', '    ```\ncode\n```\n', [[13, 17]]],
    ['a fence opened after a carriage return', 'a\r```\nb\n```', [[2, 11]]],
  ] as const)('%s', (_name, text, ranges) => {
    expect(fencedCodeRanges(text)).toEqual(ranges)
    expect(rangesOf(text, FENCE_RE)).toEqual(ranges)
  })
})
