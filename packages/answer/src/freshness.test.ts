import { InputError } from '@search-layer/core'
import { describe, expect, it } from 'vitest'
import { freshness } from './freshness.js'
import { FreshnessSchema } from './schema.js'

const now = new Date('2026-12-07T00:00:00Z')

describe('freshness', () => {
  it('flags a status answer whose every source is older than 30 days', () => {
    const out = freshness({ intent: 'status', dates: ['2026-10-01', undefined, '2026-11-01T12:00:00Z'], now })
    expect(FreshnessSchema.parse(out)).toEqual({ stale: true, newest: '2026-11-01T12:00:00.000Z', windowDays: 30 })
  })

  it('does not flag when one source is inside the window', () => {
    expect(freshness({ intent: 'status', dates: ['2025-01-01', '2026-11-20'], now })).toMatchObject({ stale: false })
  })

  it('uses a 7-day window for news', () => {
    expect(freshness({ intent: 'news', dates: ['2026-11-28'], now })).toEqual({
      stale: true,
      newest: '2026-11-28T00:00:00.000Z',
      windowDays: 7,
    })
    expect(freshness({ intent: 'news', dates: ['2026-12-01'], now: '2026-12-07T00:00:00Z' })).toMatchObject({
      stale: false,
    })
  })

  it('does not flag when no source has a readable date', () => {
    expect(freshness({ intent: 'news', dates: [undefined, 'not a date'], now })).toEqual({
      stale: false,
      windowDays: 7,
    })
  })

  it('is undefined for intents without a window', () => {
    for (const intent of ['factual', 'tutorial', 'comparison', 'toString', 'constructor'])
      expect(freshness({ intent, dates: ['2000-01-01'], now })).toBeUndefined()
  })

  it('throws InputError for an unreadable now', () => {
    expect(() => freshness({ intent: 'news', dates: [], now: 'yesterday' })).toThrow(InputError)
  })
})
