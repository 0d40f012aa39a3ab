import { ADVERSARIAL_TEXTS, LINEAR_GROWTH_LIMIT, measureGrowth } from '@search-layer/testkit'
import { describe, expect, it } from 'vitest'
import { MDN, NODE, passage } from '../test/passage.js'
import { checkText } from './check-answer.js'
import { extractiveAnswer } from './extractive.js'

// `checkText` is `checkAnswer` without the 20,000-character cut, so the growth is measured past it.
const PASSAGES = [NODE, MDN]

const hostile: Record<string, (n: number) => string> = {
  'open brackets (up to 256,000)': (n) => '['.repeat(n),
  'open brackets, one close at the end': (n) => `${'['.repeat(n)}]`,
  'unclosed quotes': (n) => '[p1: "'.repeat(n),
  'unclosed quotes, one close at the end': (n) => `${'[p1: "'.repeat(n)}]`,
  'quote marks inside one quote': (n) => `[p1: "${'a" '.repeat(n)}"]`,
  'one marker with many ids': (n) => `Fetch [${'p1, '.repeat(n)}p3].`,
  'many quoted sentences': (n) => 'It ships [p1: "built on undici, with no flag"]. '.repeat(n),
  'many wrong quotes': (n) => 'It ships [p1: "built on undici, with a flag"]. '.repeat(n),
  'CJK without punctuation': (n) => '中'.repeat(n),
  'CJK sentences with markers': (n) => '它很重要。[p2]'.repeat(n),
  'nested brackets': ADVERSARIAL_TEXTS['nested brackets']!,
  'links without close': ADVERSARIAL_TEXTS['links without close']!,
}

describe('checkAnswer: linear time on hostile answers', () => {
  it.each(Object.keys(hostile))('%s', (name) => {
    const build = hostile[name]!
    // n = 1,000: at 500 some cases take 3-6 ms, where a scheduler hiccup alone moves the ratio past the limit.
    const growth = measureGrowth(build, (text) => checkText(text, PASSAGES), {
      n: 1000,
      runs: 3,
      retryAbove: LINEAR_GROWTH_LIMIT,
    })
    expect(growth.ratio).toBeLessThan(LINEAR_GROWTH_LIMIT)
  })
})

describe('checkAnswer: linear time in the passage length', () => {
  it('a long passage is normalised once, however many quotes cite it', () => {
    const growth = measureGrowth(
      (n) => passage('p1', 'Words of a long passage, [with](https://x.example) “marks” — and more. '.repeat(n)),
      (p) =>
        checkText('It says [p1: "and more. Words of a long"]. Again [p1: "not there at all, no"].'.repeat(20), [p]),
      { n: 200, runs: 3, retryAbove: LINEAR_GROWTH_LIMIT },
    )
    expect(growth.ratio).toBeLessThan(LINEAR_GROWTH_LIMIT)
  })
})

describe('extractiveAnswer: linear time in the passages read', () => {
  it('sentences of a passage', () => {
    const growth = measureGrowth(
      (n) => [passage('p1', 'Node fetch ships with undici in release eighteen. '.repeat(n))],
      (ps) => extractiveAnswer('node fetch undici', ps),
      // The passage is read up to 20,000 characters: sizes stay below it.
      { n: 40, maxN: 90, runs: 3, retryAbove: LINEAR_GROWTH_LIMIT },
    )
    expect(growth.ratio).toBeLessThan(LINEAR_GROWTH_LIMIT)
  })
})
