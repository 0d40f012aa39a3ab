import { InputError } from '@search-layer/core'
import { describe, expect, it } from 'vitest'
import { MDN, NODE, passage, RUST } from '../test/passage.js'
import { checkAnswer, citedPassages } from './check-answer.js'
import { ANSWER_LIMITS, CheckedAnswerSchema } from './schema.js'

const PASSAGES = [NODE, RUST, MDN]
const check = (text: string) => {
  const out = checkAnswer(text, PASSAGES)
  CheckedAnswerSchema.parse(out)
  return out
}
const statuses = (text: string) => check(text).sentences.map((s) => s.status)

describe('checkAnswer: citation forms', () => {
  it('verifies a bare [p1] when the passage exists', () => {
    const out = check('Node 18 ships fetch [p1].')
    expect(out.sentences).toEqual([
      {
        text: 'Node 18 ships fetch [p1].',
        start: 0,
        end: 25,
        status: 'supported',
        citations: [{ passage: 'p1', verified: true }],
      },
    ])
    expect(out.counts).toEqual({ supported: 1, unverified: 0, uncited: 0 })
  })

  it('verifies a quote found in the passage, whatever its case, spacing and markup', () => {
    const out = check('Fetch needs no flag [p1: "ships the GLOBAL   fetch API, built on undici"].')
    expect(out.sentences[0]!.citations).toEqual([
      { passage: 'p1', quote: 'ships the GLOBAL   fetch API, built on undici', verified: true },
    ])
  })

  it('accepts typographic quotes around the quote and inside it', () => {
    const text =
      'It has no flag [p1: “built on undici, with no flag”]. Fetching works [p3: „provides an interface for fetching“].'
    expect(statuses(text)).toEqual(['supported', 'supported'])
  })

  it('matches typographic dashes, quotes and ellipses in the passage against ASCII in the quote', () => {
    const p = passage('p1', 'The release — called “Hydrogen” — isn’t final… yet, says the team.')
    const out = checkAnswer('It is not final [p1: "The release - called Hydrogen - isn\'t final... yet"].', [p])
    expect(out.sentences[0]!.status).toBe('supported')
  })

  it('reads [p1, p3], [p1; p3], [p1][p3] and upper-case ids as several citations', () => {
    for (const text of [
      'Fetch exists [p1, p3].',
      'Fetch exists [p1; p3].',
      'Fetch exists [p1][p3].',
      'Fetch exists [P1, P3].',
    ]) {
      const out = check(text)
      expect(out.sentences[0]!.citations.map((c) => c.passage)).toEqual(['p1', 'p3'])
      expect(out.sentences[0]!.status).toBe('supported')
    }
  })

  it('reads several quoted items in one marker, commas inside quotes included', () => {
    const out = check('Both agree [p1: "built on undici, with no flag", p3: "interface for fetching resources"].')
    expect(out.sentences[0]!.citations).toEqual([
      { passage: 'p1', quote: 'built on undici, with no flag', verified: true },
      { passage: 'p3', quote: 'interface for fetching resources', verified: true },
    ])
  })

  it('takes an unquoted or unclosed quote as running to the end of the marker', () => {
    expect(check('Yes [p1: built on undici, with no flag].').sentences[0]!.citations[0]).toMatchObject({
      quote: 'built on undici, with no flag',
      verified: true,
    })
    expect(check('Yes [p1: "built on undici, with no flag].').sentences[0]!.citations[0]).toMatchObject({
      quote: 'built on undici, with no flag',
      verified: true,
    })
  })

  it('checks a quote with an ellipsis as its parts, in order', () => {
    expect(statuses('Yes [p1: "Node.js 18 ships … with no flag"].')).toEqual(['supported'])
    expect(statuses('No [p1: "with no flag … Node.js 18 ships"].')).toEqual(['unverified'])
  })

  it('leaves brackets that are not citations alone', () => {
    const out = check('Arrays look like [1, 2] and [see below] or [p]. Links [text](https://x.example) too.')
    expect(out.sentences.every((s) => s.citations.length === 0)).toBe(true)
    expect(out.counts.uncited).toBe(2)
  })
})

describe('checkAnswer: statuses', () => {
  it('marks a quote that is not in the cited passage unverified', () => {
    const out = check('Fetch needs a flag [p1: "fetch needs the --experimental-fetch flag"].')
    expect(out.sentences[0]).toMatchObject({
      status: 'unverified',
      citations: [{ passage: 'p1', verified: false, reason: 'quote-not-found' }],
    })
  })

  it('marks a quote of another passage unverified: it must be in the passage cited', () => {
    expect(statuses('Fetch provides an interface [p1: "provides an interface for fetching resources"].')).toEqual([
      'unverified',
    ])
  })

  it('marks a citation of a passage id that does not exist unverified', () => {
    const out = check('Deno 2 shipped in 2024 [p9].')
    expect(out.sentences[0]).toMatchObject({
      status: 'unverified',
      citations: [{ passage: 'p9', verified: false, reason: 'unknown-passage' }],
    })
    expect(out.counts).toEqual({ supported: 0, unverified: 1, uncited: 0 })
  })

  it('counts a sentence with one verified citation among wrong ones as supported, keeping the wrong ones', () => {
    const out = check('Fetch is global [p9][p1: "not in there at all, not at all"][p1].')
    expect(out.sentences[0]!.status).toBe('supported')
    expect(out.sentences[0]!.citations.map((c) => c.verified)).toEqual([false, false, true])
  })

  it('marks sentences without a citation uncited and counts every status', () => {
    const out = check('Node 18 ships fetch [p1]. It is fast. It needs a flag [p1: "requires the experimental flag"].')
    expect(out.sentences.map((s) => s.status)).toEqual(['supported', 'uncited', 'unverified'])
    expect(out.counts).toEqual({ supported: 1, unverified: 1, uncited: 1 })
  })

  it('checks a short quote: found, it is a bare citation (quote-too-short); not found, unverified', () => {
    expect(check('In Node 18 [p1: "Node.js 18"].').sentences[0]!.citations[0]).toEqual({
      passage: 'p1',
      quote: 'Node.js 18',
      verified: true,
      reason: 'quote-too-short',
    })
    expect(check('In Node 20 [p1: "Node.js 20"].').sentences[0]!.citations[0]).toMatchObject({
      verified: false,
      reason: 'quote-not-found',
    })
  })

  it('does not search a quote longer than the limit', () => {
    const long = 'word '.repeat(ANSWER_LIMITS.maxQuoteChars / 4)
    expect(check(`Long [p1: "${long}"].`).sentences[0]!.citations[0]).toMatchObject({
      verified: false,
      reason: 'quote-too-long',
    })
  })
})

describe('checkAnswer: sentences', () => {
  it('gives a citation after the sentence end to that sentence', () => {
    const out = check('Node 18 ships fetch. [p1] MDN documents it. [p3][p1]\n\nIt is stable.')
    expect(out.sentences.map((s) => s.text)).toEqual([
      'Node 18 ships fetch. [p1]',
      'MDN documents it. [p3][p1]',
      'It is stable.',
    ])
    expect(out.sentences.map((s) => s.status)).toEqual(['supported', 'supported', 'uncited'])
    for (const s of out.sentences) expect(out.answer.slice(s.start, s.end)).toBe(s.text)
  })

  it('does not end a sentence at a full stop inside a quote', () => {
    const out = check('Fetch shipped [p1: "with no flag. It was marked experimental"]. Next one.')
    expect(out.sentences.map((s) => s.status)).toEqual(['supported', 'uncited'])
  })

  it('splits Chinese sentences and checks Chinese quotes, spaces beside CJK ignored', () => {
    const out = check(
      'Rust 1.75 稳定了异步 trait 方法。[p2: "稳定了async fn in traits"]这是一个里程碑。[p2: "这是 异步生态的 一个重要里程碑"]还有别的。',
    )
    expect(out.sentences.map((s) => [s.text, s.status])).toEqual([
      ['Rust 1.75 稳定了异步 trait 方法。[p2: "稳定了async fn in traits"]', 'supported'],
      ['这是一个里程碑。[p2: "这是 异步生态的 一个重要里程碑"]', 'supported'],
      ['还有别的。', 'uncited'],
    ])
  })

  it('accepts full-width colon and comma inside a Chinese marker', () => {
    expect(statuses('这是里程碑。[p2：“这是异步生态的一个重要里程碑”]')).toEqual(['supported'])
    expect(statuses('两者都说了。[p2，p1]')).toEqual(['supported'])
  })

  it('skips headings and lines without words, keeps list items', () => {
    const out = check('## Answer\n\n---\n\n- Node 18 ships fetch [p1]\n- MDN documents it [p3]\n')
    expect(out.sentences.map((s) => s.text)).toEqual(['- Node 18 ships fetch [p1]', '- MDN documents it [p3]'])
  })

  it('keeps the first citations of a sentence and counts the rest as dropped', () => {
    const many = Array.from({ length: 12 }, () => 'p1').join(', ')
    const out = check(`Fetch [${many}].`)
    expect(out.sentences[0]!.citations).toHaveLength(ANSWER_LIMITS.maxCitationsPerSentence)
    expect(out.droppedCitations).toBe(12 - ANSWER_LIMITS.maxCitationsPerSentence)
  })

  it('cuts an answer past the limit and says so', () => {
    const text = 'Node 18 ships fetch [p1]. '.repeat(1_000)
    const out = check(text)
    expect(out.truncated).toBe(true)
    expect(out.answer.length).toBeLessThanOrEqual(ANSWER_LIMITS.maxAnswerChars)
    expect(out.answer).toBe(text.slice(0, out.answer.length))
    expect(out.counts.supported).toBeGreaterThan(700)
    expect(check('Short [p1].').truncated).toBe(false)
  })

  it('does not cut between the halves of a surrogate pair', () => {
    const text = `${'a'.repeat(ANSWER_LIMITS.maxAnswerChars - 1)}🙂 [p1].`
    const out = check(text)
    expect(out.truncated).toBe(true)
    expect(out.answer).toBe('a'.repeat(ANSWER_LIMITS.maxAnswerChars - 1))
  })

  it('returns no sentence for an empty or blank answer', () => {
    expect(check('').sentences).toEqual([])
    expect(check('  \n ').counts).toEqual({ supported: 0, unverified: 0, uncited: 0 })
  })
})

describe('checkAnswer: input', () => {
  it('throws InputError naming the field for malformed passages and a non-string answer', () => {
    expect(() => checkAnswer('x', [{ ...NODE, id: 'passage-1' }])).toThrow(InputError)
    expect(() => checkAnswer('x', [{ ...NODE, id: 'passage-1' }])).toThrow(/0\.id/)
    expect(() => checkAnswer('x', [NODE, { ...MDN, id: 'p1' }])).toThrow(/duplicate passage id "p1"/)
    expect(() => checkAnswer(42 as unknown as string, [])).toThrow(InputError)
  })
})

describe('citedPassages', () => {
  it('lists the passages verified citations of supported sentences point to', () => {
    const out = check('A [p3]. B [p9]. C [p1: "a quote that is not in it"]. D [p2][p1].')
    expect(citedPassages(out, PASSAGES).map((p) => p.id)).toEqual(['p1', 'p2', 'p3'])
    expect(citedPassages(check('A [p1: "a quote that is not in it"].'), PASSAGES)).toEqual([])
  })
})
