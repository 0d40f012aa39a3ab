import { ADVERSARIAL_TEXTS, measureGrowth } from '@search-layer/testkit'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { findRefs as findRefsBefore } from '../test/refs-regex-reference.js'
import { extractRefs, findRefs } from './index.js'

// Pieces of ordinary comments: references of every kind, keywords, code, comments, links, punctuation.
const PIECES = [
  'word ',
  'see ',
  'Fixes ',
  'closes: ',
  'Duplicate of ',
  'related to ',
  '**fixed** ',
  '#12',
  'GH-7',
  'octo/lib#3',
  'octo/lib@deadbeef12',
  'a1b2c3d',
  '0123456789abcdef01234567',
  'https://github.com/octo/demo/issues/5',
  'https://github.com/octo/demo/pull/8/files',
  'http://e.com/a_(b)',
  'https://x.org/p?q=1',
  '[label](https://e.com/y "title")',
  '[](http://e.com/z)',
  '<https://e.com/auto>',
  '`#9 in code`',
  '```\n#10\n```\n',
  '~~~js\n',
  '<!-- #11 -->',
  '<!--',
  '-->',
  '\n',
  ' ',
  '.',
  ',',
  ')',
  ']',
  '(',
  '[',
  '\r\n',
]
const commentText = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((parts) => parts.join(''))

describe('findRefs keeps its output', () => {
  it.each([undefined, 'octo/demo'])('same references as the regex version on ordinary text (repo %s)', (repo) => {
    fc.assert(
      fc.property(commentText, (text) => {
        const options = repo ? { repo, contextChars: 20 } : { contextChars: 20 }
        expect(findRefs(text, options)).toEqual(findRefsBefore(text, options))
      }),
      { numRuns: 2000 },
    )
  })
})

// A complexity check, not a speed target: a linear scan grows ~4x from n to 4n, a quadratic one ~16x.
// The figures themselves are reported by the bench (`refs` scenario).
describe('extractRefs is linear on adversarial comments', { timeout: 120_000 }, () => {
  const cases = [
    'url + closing parens',
    'unclosed <!--',
    '#1 on one line',
    'GH-1 on one line',
    'many URLs',
    'many autolinks',
    'open brackets',
    'link without close',
    'backticks',
    'fence without newline',
    'spaces without newline',
    'many <a openers in one tag',
    'many href values in one tag',
    'unterminated attribute quotes',
    'nested <',
  ]
  it.each(cases)('%s', (name) => {
    const build = ADVERSARIAL_TEXTS[name]!
    const growth = measureGrowth(build, (text) => extractRefs(text, { repo: 'o/r' }), { n: 2000, retryAbove: 8 })
    expect(growth.ratio, JSON.stringify(growth)).toBeLessThan(8)
  })
})
