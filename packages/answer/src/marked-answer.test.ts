import { describe, expect, it } from 'vitest'
import { MDN, NODE } from '../test/passage.js'
import { checkAnswer } from './check-answer.js'
import { markedAnswer } from './marked-answer.js'

describe('markedAnswer', () => {
  const checked = checkAnswer(
    'Node 18 ships fetch [p1]. It is fast. It needs a flag [p1: "requires the experimental flag"].\n\nMDN has it [p3].',
    [NODE, MDN],
  )

  it('marks unverified and uncited sentences after their end, leaving the rest as written', () => {
    expect(markedAnswer(checked)).toBe(
      'Node 18 ships fetch [p1]. It is fast. [uncited] It needs a flag [p1: "requires the experimental flag"]. ' +
        '[unverified]\n\nMDN has it [p3].',
    )
  })

  it('takes other marks; the default marks are not read as citations', () => {
    expect(markedAnswer(checked, { uncited: '⚠', unverified: '✗' })).toContain('It is fast. ⚠ It needs')
    const citations = (c: typeof checked) => c.sentences.flatMap((s) => s.citations)
    expect(citations(checkAnswer(markedAnswer(checked), [NODE, MDN]))).toEqual(citations(checked))
  })
})
