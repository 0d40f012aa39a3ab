import { describe, expect, it } from 'vitest'
import { ProviderError } from './errors.js'
import { retryHint } from './http.js'
import { parseRetryAfter, readRateLimitHeaders, resetDelayMs, unusableWaitHeaders } from './rate-limit-headers.js'
import { MAX_TIMER_MS, MAX_UPSTREAM_WAIT_MS, timerMs, upstreamTimeAt, upstreamWaitMs } from './upstream-wait.js'

const NOW = Date.parse('2026-01-01T00:00:00Z')
const DIGITS_400 = '9'.repeat(400)

describe('upstreamWaitMs', () => {
  it.each([
    ['a plain wait', 2000, 2000],
    ['a fraction', 1.4, 1],
    ['a year, the most believed', MAX_UPSTREAM_WAIT_MS, MAX_UPSTREAM_WAIT_MS],
    ['ten years', 315_360_000_000, undefined],
    ['negative', -1, undefined],
    ['NaN', Number.NaN, undefined],
    ['Infinity', Number.POSITIVE_INFINITY, undefined],
    ['"1e400" read as a number', Number('1e400'), undefined],
    ['a string', '2000', undefined],
  ])('%s', (_name, value, expected) => {
    expect(upstreamWaitMs(value)).toBe(expected)
  })

  it('holds a believable wait to the caller’s bound', () => {
    expect(upstreamWaitMs(7_200_000, 3_600_000)).toBe(3_600_000)
  })
})

describe('upstreamTimeAt', () => {
  it('keeps a time within a year, past ones included, and drops the rest', () => {
    expect(upstreamTimeAt(NOW + 30_000, NOW)).toBe(NOW + 30_000)
    expect(upstreamTimeAt(NOW - 5_000, NOW)).toBe(NOW - 5_000)
    expect(upstreamTimeAt(Date.parse('9999-12-31T23:59:59Z'), NOW)).toBeUndefined()
    expect(upstreamTimeAt(Number.POSITIVE_INFINITY, NOW)).toBeUndefined()
    expect(upstreamTimeAt(-1, NOW)).toBeUndefined()
  })
})

describe('timerMs', () => {
  it('never hands setTimeout a delay outside its range', () => {
    expect(timerMs(Number.POSITIVE_INFINITY)).toBe(MAX_TIMER_MS)
    expect(timerMs(1e300)).toBe(MAX_TIMER_MS)
    expect(timerMs(-5)).toBe(0)
    expect(timerMs(Number.NaN)).toBe(0)
    expect(timerMs(250)).toBe(250)
  })
})

describe('Retry-After from outside', () => {
  it.each([
    ['315360000 s (ten years)', '315360000'],
    ['a date in 9999', 'Fri, 31 Dec 9999 23:59:59 GMT'],
    ['400 digits (Infinity once read)', DIGITS_400],
    ['a negative number', '-5'],
    ['"1e400"', '1e400'],
    ['NaN', 'NaN'],
  ])('%s gives no wait and is named as unusable', (_name, value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined()
    expect(readRateLimitHeaders({ 'retry-after': value }, NOW)?.retryAt).toBeUndefined()
    expect(unusableWaitHeaders({ 'retry-after': value }, NOW)).toEqual(['retry-after'])
  })

  it('a believable one is read and not named', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120_000)
    expect(unusableWaitHeaders({ 'retry-after': '120', 'x-ratelimit-reset': '1, 1419200' }, NOW)).toEqual([])
  })
})

describe('rate-limit resets from outside', () => {
  it.each([
    ['ten years of seconds', '315360000'],
    ['a Unix time in 9999', String(Date.parse('9999-12-31T00:00:00Z') / 1000)],
    ['400 digits', DIGITS_400],
    ['a negative delay', '-30'],
  ])('%s is ignored, and named as unusable', (_name, value) => {
    const reading = readRateLimitHeaders({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': value }, NOW)
    expect(reading?.resetAt).toBeUndefined()
    expect(unusableWaitHeaders({ 'x-ratelimit-reset': value }, NOW)).toEqual(['x-ratelimit-reset'])
    expect(resetDelayMs(Number(value), NOW)).toBeUndefined()
  })

  it('a duration header of absurd length is ignored', () => {
    const reading = readRateLimitHeaders({ 'x-ratelimit-reset-requests': `${DIGITS_400}h` }, NOW)
    expect(reading).toBeUndefined()
    expect(unusableWaitHeaders({ 'x-ratelimit-reset-requests': `${DIGITS_400}h` }, NOW)).toEqual([
      'x-ratelimit-reset-requests',
    ])
  })
})

describe('ProviderError', () => {
  it.each([Number.POSITIVE_INFINITY, -1, Number.NaN, 315_360_000_000])(
    'drops a wait of %s, marks it ignored, and says no retry time',
    (retryAfterMs) => {
      const error = new ProviderError(`exa rate limit hit${retryHint(retryAfterMs)}`, {
        kind: 'rate_limited',
        provider: 'exa',
        retryAfterMs,
      })
      expect(error.retryAfterMs).toBeUndefined()
      expect(error.retryAfterIgnored).toBe(true)
      expect(error.message).toBe('exa rate limit hit')
      expect(JSON.stringify(error)).not.toContain('retryAfterMs')
    },
  )

  it('keeps a believable wait', () => {
    const error = new ProviderError('x', { kind: 'rate_limited', retryAfterMs: 2000 })
    expect(error.retryAfterMs).toBe(2000)
    expect(error.retryAfterIgnored).toBeUndefined()
  })
})
