import { describe, expect, it } from 'vitest'
import { describeError } from './error-responses.js'

// A ProviderError from another copy of core (a plug-in bundling its own) carries its wait unchecked.
const foreignRateLimit = (retryAfterMs: number) =>
  Object.assign(new Error('brave rate limit hit'), { name: 'ProviderError', kind: 'rate_limited', retryAfterMs })

describe('describeError', () => {
  it('turns a believable wait into Retry-After seconds', () => {
    expect(describeError(foreignRateLimit(2500)).retryAfterSec).toBe(3)
  })

  it.each([Number.POSITIVE_INFINITY, Number.NaN, -1, 315_360_000_000])(
    'sends no Retry-After for a wait of %s',
    (ms) => {
      const described = describeError(foreignRateLimit(ms))
      expect(described.status).toBe(429)
      expect(described.retryAfterSec).toBeUndefined()
    },
  )
})
