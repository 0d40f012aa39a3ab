import { describe, expect, it } from 'vitest'
import { mapGithubError, noteRateLimit } from './_github-client.js'

// Issue 36: GitHub's rate-limit headers are read through core's wait rule: a reset no date can hold must not throw
// from toISOString, and one years away must not become the wait.
const exhausted = (reset: string) => ({
  status: 403,
  headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-limit': '60', 'x-ratelimit-reset': reset },
  text: '{"message":"API rate limit exceeded"}',
  json: { message: 'API rate limit exceeded' },
})

describe('GitHub rate-limit headers from outside', () => {
  it.each([
    ['1e13 seconds (beyond any date)', '1e13'],
    ['a Unix time in 9999', '253402300799'],
    ['400 digits', '9'.repeat(400)],
    ['negative', '-1'],
  ])('a reset of %s is left out of the rate limit noted, without throwing', (_name, reset) => {
    const ctx = {} as Parameters<typeof noteRateLimit>[0]
    noteRateLimit(ctx, exhausted(reset).headers)
    expect(ctx.rateLimit).toEqual({ remaining: 0, limit: 60 })
  })

  it('notes a believable reset as its time', () => {
    const ctx = {} as Parameters<typeof noteRateLimit>[0]
    const reset = Math.floor(Date.now() / 1000) + 600
    noteRateLimit(ctx, exhausted(String(reset)).headers)
    expect(ctx.rateLimit?.resetAt).toBe(new Date(reset * 1000).toISOString())
  })

  it('a spent limit whose reset is in 9999 waits GitHub’s default minute, not millennia', () => {
    const error = mapGithubError(exhausted('253402300799'), 'https://api.github.com/repos/o/r/issues/1', undefined)
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterMs: 60_000 })
  })
})
