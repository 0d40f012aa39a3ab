import { ADVERSARIAL_TEXTS, measureGrowth, sizedText, LINEAR_GROWTH_LIMIT } from '@search-layer/testkit'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { findRefs as findRefsBefore } from '../test/refs-regex-reference.js'
import { extractRefs, findRefs } from './index.js'
import { MAX_REFS_PER_TEXT } from './refs.js'

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
    'image links without close',
    'links without close',
    'link titles without close',
    'nested brackets',
    'brackets, comments and references',
    'trailing slashes',
  ]
  it.each(cases)('%s', (name) => {
    const build = ADVERSARIAL_TEXTS[name]!
    const growth = measureGrowth(build, (text) => extractRefs(text, { repo: 'o/r' }), {
      n: 2000,
      retryAbove: LINEAR_GROWTH_LIMIT,
    })
    expect(growth.ratio, JSON.stringify(growth)).toBeLessThan(LINEAR_GROWTH_LIMIT)
  })
})

// A sanity bound, not a benchmark: each of these 1 MiB texts is read in 30-90 ms on a shared two-core machine
// (a 390 KB body of `#1 ` took 2.4 s, one of `\r```\r` 0.5 s, a 1 MiB URL 0.3 s). Generous, so only a return
// to unbounded work per reference trips it.
describe('extractRefs reads 1 MiB of any of them in well under a second', () => {
  it.each([
    '#1 on one line',
    'GH-1 on one line',
    'many URLs',
    'many autolinks',
    'brackets, comments and references',
    'fence without newline',
    'url + closing parens',
    'trailing slashes',
    'link without close',
    'image links without close',
    'nested brackets',
  ])('%s', (name) => {
    const text = sizedText(name, 1 << 20)
    const start = performance.now()
    extractRefs(text, { repo: 'o/r' })
    // A quadratic scan takes minutes at 1 MiB, a linear one tens of ms: 5 s tells them apart on a loaded machine.
    expect(performance.now() - start).toBeLessThan(5000)
  })
})

describe('findRefs keeps the first references of a text that holds too many', () => {
  it.each([
    ['#N', (i: number) => `#${i + 1} `],
    ['URLs', (i: number) => `https://e.com/${i} `],
    ['links', (i: number) => `[${i}](https://e.com/${i}) `],
  ])('%s', (_kind, piece) => {
    const text = Array.from({ length: MAX_REFS_PER_TEXT * 3 }, (_, i) => piece(i)).join('')
    const refs = findRefs(text, { repo: 'o/r' })
    expect(refs).toHaveLength(MAX_REFS_PER_TEXT)
    expect(refs.map((r) => r.text)).toEqual(
      findRefs(text.slice(0, text.indexOf(piece(MAX_REFS_PER_TEXT))), { repo: 'o/r' }).map((r) => r.text),
    )
  })

  it('still reads URLs that only look long because of the punctuation after them', () => {
    const refs = findRefs(`see https://e.com/a${')'.repeat(20_000)} and #2`, { repo: 'o/r' })
    expect(refs.map((r) => r.url)).toEqual(['https://e.com/a', 'https://github.com/o/r/issues/2'])
  })
})
