import { describe, expect, it } from 'vitest'
import { pagesToRead, readingReserveMs } from './_read.js'
import { SearchRequestSchema } from './search-request-schema.js'

const parse = (read: unknown, deadlineMs = 15_000) => SearchRequestSchema.parse({ query: 'q', read, deadlineMs })

describe('the time a reading search keeps for reading', () => {
  it('is the page timeout, at most a quarter of the deadline; nothing when not reading', () => {
    expect(readingReserveMs(parse(5))).toBe(3_750)
    expect(readingReserveMs(parse({ pages: 5, timeoutMs: 2_000 }))).toBe(2_000)
    expect(readingReserveMs(parse(5, 1_000))).toBe(250)
    expect(readingReserveMs(parse(0))).toBe(0)
    expect(readingReserveMs(parse(undefined))).toBe(0)
    expect([pagesToRead(parse(undefined)), pagesToRead(parse(0)), pagesToRead(parse(7))]).toEqual([0, 0, 7])
  })
})
