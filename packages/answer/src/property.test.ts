import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { passage } from '../test/passage.js'
import { checkAnswer } from './check-answer.js'
import { extractiveAnswer } from './extractive.js'

// Characters a quote inside `[pN: "…"]` cannot hold (brackets end the marker; a closing quotation mark followed
// by `, pN` would end the quote): a model quoting such a span is outside the contract.
const UNQUOTABLE = /[[\]"\u201c\u201d\u201e\u00ab\u00bb\u300c\u300d\u300e\u300f]/

const PIECES = [
  'Node.js 18 ships fetch. ',
  'Rust 1.75 稳定了 async fn in traits。',
  '“Curly” and ‘single’ quotes — dashes – ellipsis… ',
  'ＦＵＬＬ ｗｉｄｔｈ ',
  'café résumé naïve ',
  'ΟΔΥΣΣΕΥΣ ',
  '**bold** _em_ `code` ',
  '\n\n',
  '  \t ',
  'İstanbul ß ﬁle ',
  '한국어 문장입니다. ',
  '🙂👍🏽 ',
]

const text = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 20 }).map((parts) => parts.join('')),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }),
)

describe('checkAnswer property', () => {
  it('a sentence citing an exact slice of a passage (at code point boundaries) is always supported', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), (page, a, b) => {
        const points = [...page]
        const from = a % points.length
        const to = from + 1 + (b % (points.length - from))
        const slice = points.slice(from, to).join('')
        fc.pre(!UNQUOTABLE.test(slice))
        const out = checkAnswer(`The source says so [p1: "${slice}"].`, [passage('p1', page)])
        expect(out.sentences.map((s) => s.status)).toEqual(['supported'])
        expect(out.sentences[0]!.citations[0]!.verified).toBe(true)
      }),
      { numRuns: 500 },
    )
  })

  it('sentence offsets always point at the sentence text, in order, and the counts add up', () => {
    const answer = fc
      .array(fc.oneof(fc.constantFrom(...PIECES, '[p1]', ' [p2: "x y z"]', '[p1, p9]', '. ', '。', '['), fc.string()), {
        maxLength: 30,
      })
      .map((parts) => parts.join(''))
    fc.assert(
      fc.property(answer, (t) => {
        const out = checkAnswer(t, [passage('p1', 'x y z'), passage('p2', 'x y z w')])
        let last = 0
        for (const s of out.sentences) {
          expect(t.slice(s.start, s.end)).toBe(s.text)
          expect(s.start).toBeGreaterThanOrEqual(last)
          last = s.end
        }
        const { supported, unverified, uncited } = out.counts
        expect(supported + unverified + uncited).toBe(out.sentences.length)
      }),
      { numRuns: 300 },
    )
  })

  it('every sentence of an extractive answer is supported, whatever the passages hold', () => {
    let answered = 0
    const words = fc.constantFrom('node', 'fetch', 'undici', 'ships', 'release', '异步', '生态', '里程碑')
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 4 }),
        fc.array(words, { minLength: 1, maxLength: 4 }),
        (pages, q) => {
          const passages = pages.map((page, i) => passage(`p${i + 1}`, `${page} ${q.join(' ')} ${page}`))
          const out = extractiveAnswer(q.join(' '), passages)
          expect(out.counts.unverified + out.counts.uncited).toBe(0)
          expect(out.sentences.every((s) => s.status === 'supported')).toBe(true)
          if (out.sentences.length > 0) answered++
        },
      ),
      { numRuns: 300 },
    )
    // Not an empty property: most runs quote something.
    expect(answered).toBeGreaterThan(100)
  })
})
