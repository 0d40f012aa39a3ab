import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readRateLimitHeaders, resetDelayMs } from './rate-limit-headers.js'

const NOW = Date.parse('2026-11-20T12:00:00Z')

describe('readRateLimitHeaders', () => {
  it("reads Brave's two-valued headers: per second, then per month", () => {
    // The shape Brave documents and sends (Free plan): limit, policy, remaining, reset in seconds.
    const reading = readRateLimitHeaders(
      {
        'x-ratelimit-limit': '1, 15000',
        'x-ratelimit-policy': '1;w=1, 15000;w=2592000',
        'x-ratelimit-remaining': '0, 14983',
        'x-ratelimit-reset': '1, 1419200',
      },
      NOW,
    )
    expect(reading).toEqual({
      perSecond: 1,
      remaining: 0,
      resetAt: NOW + 1000,
      windowMs: 1000,
      quotaLimit: 15000,
      quotaRemaining: 14983,
      quotaResetAt: NOW + 1_419_200_000,
    })
  })

  it('takes two values without a policy as per second and per month (a paid plan)', () => {
    const reading = readRateLimitHeaders(
      { 'x-ratelimit-limit': '20, 20000000', 'x-ratelimit-remaining': '19, 1999', 'x-ratelimit-reset': '1, 86400' },
      NOW,
    )
    expect(reading).toMatchObject({
      perSecond: 20,
      remaining: 19,
      windowMs: 1000,
      quotaLimit: 20_000_000,
      quotaRemaining: 1999,
    })
  })

  it("reads Exa's recorded single values, whose reset is a Unix time (crewAI cassette, 2026-02-11)", () => {
    const at = Date.parse('Wed, 11 Feb 2026 01:02:58 GMT')
    const reading = readRateLimitHeaders(
      { 'x-ratelimit-limit': '450', 'x-ratelimit-remaining': '405', 'x-ratelimit-reset': '1770771778' },
      at,
    )
    // No window is stated, so no pace is inferred from the 450.
    expect(reading).toEqual({ remaining: 405, resetAt: 1_770_771_778_000 })
  })

  it("reads xAI's OpenAI-style request headers and Retry-After", () => {
    expect(
      readRateLimitHeaders(
        { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '6m0s', 'retry-after': '2' },
        NOW,
      ),
    ).toEqual({ remaining: 0, resetAt: NOW + 360_000, retryAt: NOW + 2000 })
  })

  it('is undefined for an answer that says nothing about limits', () => {
    expect(readRateLimitHeaders({ 'content-type': 'application/json' }, NOW)).toBeUndefined()
  })

  it('never throws and never yields a negative or non-finite figure', () => {
    const names = [
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'x-ratelimit-policy',
      'retry-after',
    ]
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...names), fc.string()), (headers) => {
        const reading = readRateLimitHeaders(headers, NOW) ?? {}
        for (const value of Object.values(reading)) expect(Number.isFinite(value) && value >= 0).toBe(true)
      }),
    )
  })
})

describe('resetDelayMs', () => {
  it.each([
    ['seconds to wait (Brave)', 2, 2000],
    ['a Unix time in seconds (Exa), 30 s ahead', NOW / 1000 + 30, 30_000],
    ['a Unix time already past', NOW / 1000 - 5, 0],
    ['zero', 0, 0],
  ])('reads %s', (_name, seconds, expected) => {
    expect(resetDelayMs(seconds, NOW)).toBe(expected)
  })
})
