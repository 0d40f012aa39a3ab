import { InputError } from '@search-layer/core'
import { describe, expect, it } from 'vitest'
import { MDN, NODE, passage, RUST } from '../test/passage.js'
import { checkAnswer } from './check-answer.js'
import { EXTRACTIVE_LABEL, extractiveAnswer } from './extractive.js'
import { ExtractiveAnswerSchema } from './schema.js'

const NODE_PAGE = passage(
  'p4',
  '## Fetch (experimental)\n\n' +
    'Node.js 18 ships the global fetch API, built on [undici](https://undici.nodejs.org), with no flag. ' +
    'The weather in Lisbon was sunny that week. ' +
    'Fetch was marked stable in Node.js 21 after two releases of feedback.\n\n' +
    '| version | fetch |\n| --- | --- |\n| 18 | experimental fetch API |',
  'https://nodejs.org/en/blog/release/v18.0.0',
)

describe('extractiveAnswer', () => {
  it('quotes the sentences sharing the question terms, each verified by construction, under the label', () => {
    const out = extractiveAnswer('When did Node.js ship the fetch API?', [NODE_PAGE, MDN])
    ExtractiveAnswerSchema.parse(out)
    expect(out.mode).toBe('extractive')
    expect(out.answer.startsWith(`${EXTRACTIVE_LABEL}\n\n`)).toBe(true)
    expect(out.sentences.length).toBeGreaterThanOrEqual(1)
    expect(out.sentences.length).toBeLessThanOrEqual(3)
    expect(out.sentences.every((s) => s.status === 'supported')).toBe(true)
    expect(out.counts).toEqual({ supported: out.sentences.length, unverified: 0, uncited: 0 })
    for (const s of out.sentences) expect(out.answer.slice(s.start, s.end)).toBe(s.text)
    expect(out.answer).toContain('Node.js 18 ships the global fetch API, built on undici, with no flag.')
    expect(out.answer).not.toContain('Lisbon')
    expect(out.answer).not.toContain('| 18 |')
    expect(out.answer).not.toContain('https://undici')
  })

  it('passes its own answer through checkAnswer with every sentence supported', () => {
    const out = extractiveAnswer('node fetch flag', [NODE_PAGE, NODE, MDN])
    const again = checkAnswer(out.answer, [NODE_PAGE, NODE, MDN])
    expect(again.counts.supported).toBe(out.counts.supported)
    expect(again.counts.unverified).toBe(0)
  })

  it('takes at most maxSentences sentences, and at most two of one passage', () => {
    const many = passage(
      'p1',
      Array.from({ length: 6 }, (_, i) => `Fetch in Node release ${i} works with undici here.`).join(' '),
    )
    expect(extractiveAnswer('node fetch undici', [many]).sentences).toHaveLength(2)
    expect(extractiveAnswer('node fetch undici', [many], { maxSentences: 1 }).sentences).toHaveLength(1)
  })

  it('answers a Chinese question from Chinese sentences', () => {
    const out = extractiveAnswer('Rust 什么时候稳定了 async fn in traits？', [RUST, MDN])
    expect(out.sentences).toHaveLength(1)
    expect(out.sentences[0]!.citations[0]).toMatchObject({ passage: 'p2', verified: true })
    expect(out.sentences[0]!.text).toContain('稳定了 async fn in traits')
  })

  it('quotes short all-Chinese sentences (a CJK character counts two columns)', () => {
    const zh = passage('p5', '## 异步\n\n这是异步生态的一个重要里程碑。天气很好。')
    const out = extractiveAnswer('异步生态的里程碑是什么', [zh])
    expect(out.sentences.map((s) => s.citations[0])).toEqual([
      { passage: 'p5', quote: '这是异步生态的一个重要里程碑。', verified: true },
    ])
  })

  it('says so, with no sentence counted, when no sentence shares the question terms', () => {
    const out = extractiveAnswer('kubernetes operator reconciliation', [NODE, MDN])
    expect(out.sentences).toEqual([])
    expect(out.counts).toEqual({ supported: 0, unverified: 0, uncited: 0 })
    expect(out.answer).toBe(`${EXTRACTIVE_LABEL}\n\nNo sentence of the 2 passages read shares the question's terms.`)
  })

  it('throws InputError for an empty question or bad options', () => {
    expect(() => extractiveAnswer('  ', [NODE])).toThrow(InputError)
    expect(() => extractiveAnswer('fetch', [NODE], { maxSentences: 4 })).toThrow(/maxSentences/)
  })
})
