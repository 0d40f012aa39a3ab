import { describe, expect, it } from 'vitest'
import { describeProviderFailure } from './_errors.js'

describe('describeProviderFailure', () => {
  it('says how long to wait only for a believable wait', () => {
    expect(describeProviderFailure('rate_limited', 'brave', 30_000)).toContain('Retry in about 30 s.')
    for (const wait of [Number.POSITIVE_INFINITY, Number.NaN, -5, 315_360_000_000])
      expect(describeProviderFailure('rate_limited', 'brave', wait)).toContain('Retry in a little while.')
  })
})
