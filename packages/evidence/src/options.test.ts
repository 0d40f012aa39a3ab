import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ReadRequestSchema } from './options.js'

const Request = z.object({ read: ReadRequestSchema.optional() }).strict()
const issues = (read: unknown) => Request.safeParse({ read }).error?.issues.map((i) => [i.path.join('.'), i.message])

describe('ReadRequestSchema', () => {
  it('takes a page count or the options, filling the defaults', () => {
    expect(Request.parse({ read: 3 }).read).toEqual({ pages: 3, budgetTokens: 2000, timeoutMs: 5000 })
    expect(Request.parse({ read: { budgetTokens: 500 } }).read).toEqual({
      pages: 5,
      budgetTokens: 500,
      timeoutMs: 5000,
    })
    expect(Request.parse({}).read).toBeUndefined()
  })

  it('takes a question to rank passages for, trimmed, and refuses an empty or over-long one', () => {
    expect(Request.parse({ read: { pages: 2, question: '  Why?  ' } }).read).toEqual({
      pages: 2,
      budgetTokens: 2000,
      timeoutMs: 5000,
      question: 'Why?',
    })
    expect(issues({ question: ' ' })).toEqual([['read.question', 'must not be empty']])
    expect(issues({ question: 'x'.repeat(2001) })).toEqual([['read.question', 'must be at most 2000 characters']])
  })

  it('refuses a count outside 0–10 or not whole, naming the field and the range', () => {
    expect(issues(11)).toEqual([['read', 'must be a whole number from 0 to 10']])
    expect(issues(-1)).toEqual([['read', 'must be a whole number from 0 to 10']])
    expect(issues(2.5)).toEqual([
      ['read', 'must be a whole number from 0 to 10, or { pages, budgetTokens, timeoutMs, question }'],
    ])
    expect(issues('3')).toEqual([
      ['read', 'must be a whole number from 0 to 10, or { pages, budgetTokens, timeoutMs, question }'],
    ])
    expect(issues({ pages: 11 })).toEqual([['read.pages', 'must be a whole number from 0 to 10']])
    expect(issues({ pages: 2, extra: true })?.[0]?.[0]).toBe('read')
  })
})
