import type { CheckedAnswer } from './schema.js'

/** The marks `markedAnswer` appends by default; neither reads as a citation marker (`[pN]`). */
export const DEFAULT_MARKS = Object.freeze({ unverified: '[unverified]', uncited: '[uncited]' })

/**
 * The answer text with a mark after every unverified and every uncited sentence, so plain-text output never shows
 * them as cited. Supported sentences and the text between sentences are left as they are. Linear.
 */
export function markedAnswer(
  checked: Pick<CheckedAnswer, 'answer' | 'sentences'>,
  marks: { unverified?: string; uncited?: string } = {},
): string {
  const mark = { ...DEFAULT_MARKS, ...marks }
  const parts: string[] = []
  let at = 0
  for (const s of checked.sentences) {
    if (s.status === 'supported') continue
    parts.push(checked.answer.slice(at, s.end), ` ${mark[s.status]}`)
    at = s.end
  }
  parts.push(checked.answer.slice(at))
  return parts.join('')
}
