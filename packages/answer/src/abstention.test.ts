import { InputError } from '@search-layer/core'
import { describe, expect, it } from 'vitest'
import { abstention } from './abstention.js'
import { ANSWER_LIMITS, AbstentionSchema } from './schema.js'

describe('abstention', () => {
  it('says the answer was not found in the sources read and what was searched', () => {
    const out = abstention('When does Deno 3 ship?', ['Deno 3 release date', 'deno roadmap 2026'])
    AbstentionSchema.parse(out)
    expect(out).toEqual({
      answer:
        'Not found in the sources read: no passage supports an answer to "When does Deno 3 ship?". ' +
        'Searched: "Deno 3 release date"; "deno roadmap 2026".',
      sentences: [],
      counts: { supported: 0, unverified: 0, uncited: 0 },
      truncated: false,
      droppedCitations: 0,
      abstained: true,
      searched: ['Deno 3 release date', 'deno roadmap 2026'],
    })
  })

  it('answers a Chinese question in Chinese', () => {
    expect(abstention('Deno 3 什么时候发布？', ['Deno 3 发布日期']).answer).toBe(
      '在已读的来源中没有找到答案：没有段落支持对“Deno 3 什么时候发布？”的回答。已搜索：“Deno 3 发布日期”。',
    )
  })

  it('bounds what it lists and says when nothing was searched', () => {
    const many = Array.from({ length: 30 }, (_, i) => `query ${i}\nwith a newline ${'x'.repeat(300)}`)
    const out = abstention('q', many)
    expect(out.searched).toHaveLength(ANSWER_LIMITS.maxSearched)
    expect(out.searched.every((s) => s.length <= ANSWER_LIMITS.maxSearchedChars && !s.includes('\n'))).toBe(true)
    expect(out.answer).toContain(' and 10 more.')
    expect(abstention('q', []).answer).toContain('Nothing was searched.')
  })

  it('throws InputError for an empty question or a search that is not a string', () => {
    expect(() => abstention('', [])).toThrow(InputError)
    expect(() => abstention('q', [1 as unknown as string])).toThrow(/searched: 0: .*expected string/)
  })
})
