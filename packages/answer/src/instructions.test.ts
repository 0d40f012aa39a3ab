import { describe, expect, it } from 'vitest'
import { checkAnswer } from './check-answer.js'
import { CITATION_INSTRUCTIONS } from './instructions.js'

describe('CITATION_INSTRUCTIONS', () => {
  it('shows the model markers in the forms checkAnswer reads', () => {
    const read = checkAnswer(CITATION_INSTRUCTIONS, []).sentences.flatMap((s) => s.citations)
    expect(read.map((c) => [c.passage, c.quote])).toEqual([
      ['p3', undefined],
      ['p3', 'exact words from the passage'],
      ['p1', undefined],
      ['p4', undefined],
    ])
  })
})
