import { parseInput } from '@search-layer/core'
import { isChinese } from '@search-layer/core/text'
import { z } from 'zod'
import { ANSWER_LIMITS, type Abstention, QuestionSchema } from './schema.js'

const SearchedSchema = z.array(z.string())
const MAX_QUESTION_SHOWN = 200

/**
 * The answer when no passage supports one: it says the answer was not found in the sources read and lists what
 * was searched (the first `maxSearched` searches, each cut to `maxSearchedChars`), in Chinese for a Chinese
 * question. No sentence is counted. Throws `InputError` for an empty question or a search that is not a string.
 */
export function abstention(question: string, searched: string[]): Abstention {
  const q = oneLine(parseInput(QuestionSchema, question, 'question'), MAX_QUESTION_SHOWN)
  const all = parseInput(SearchedSchema, searched, 'searched')
    .map((s) => oneLine(s, ANSWER_LIMITS.maxSearchedChars))
    .filter(Boolean)
  const shown = all.slice(0, ANSWER_LIMITS.maxSearched)
  const more = all.length - shown.length
  const answer = isChinese(q) ? chinese(q, shown, more) : english(q, shown, more)
  return {
    answer,
    sentences: [],
    counts: { supported: 0, unverified: 0, uncited: 0 },
    truncated: false,
    droppedCitations: 0,
    abstained: true,
    searched: shown,
  }
}

function english(question: string, searched: readonly string[], more: number): string {
  const list = searched.map((s) => `"${s}"`).join('; ')
  const tail = more > 0 ? ` and ${more} more` : ''
  const what = searched.length > 0 ? `Searched: ${list}${tail}.` : 'Nothing was searched.'
  return `Not found in the sources read: no passage supports an answer to "${question}". ${what}`
}

function chinese(question: string, searched: readonly string[], more: number): string {
  const list = searched.map((s) => `“${s}”`).join('；')
  const tail = more > 0 ? `，另有 ${more} 项` : ''
  const what = searched.length > 0 ? `已搜索：${list}${tail}。` : '未进行搜索。'
  return `在已读的来源中没有找到答案：没有段落支持对“${question}”的回答。${what}`
}

/** White space collapsed, cut at `max` characters (with an ellipsis). */
function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}
