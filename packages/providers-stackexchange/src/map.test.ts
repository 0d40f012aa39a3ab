import { readFileSync } from 'node:fs'
import { type ParsedProviderRequest, ProviderError, ProviderRequestSchema } from '@search-layer/core'
import { measureGrowth, LINEAR_GROWTH_LIMIT } from '@search-layer/testkit'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  buildStackExchangeQuery,
  mapStackExchangeError,
  mapStackExchangeResults,
  stackExchangeRateLimit,
} from './map.js'
import { StackExchangeResponseSchema } from './schema.js'

const recorded = () =>
  StackExchangeResponseSchema.parse(
    JSON.parse(
      readFileSync(new URL('../test/fixtures/gaea--search-advanced-rails-2016.json', import.meta.url), 'utf8'),
    ),
  )
const req = (input: Record<string, unknown> = {}): ParsedProviderRequest =>
  ProviderRequestSchema.parse({ query: 'rails render', ...input })
const NOW = new Date('2026-11-20T12:00:00Z')
const NOW_S = NOW.getTime() / 1000

describe('buildStackExchangeQuery', () => {
  it('asks stackoverflow by relevance with bodies; the key only when there is one', () => {
    expect(buildStackExchangeQuery(req({ num: 7 }), { now: NOW })).toEqual({
      q: 'rails render',
      site: 'stackoverflow',
      pagesize: 7,
      order: 'desc',
      sort: 'relevance',
      filter: 'withbody',
    })
    expect(buildStackExchangeQuery(req(), { now: NOW, key: 'k((', site: 'serverfault' })).toMatchObject({
      key: 'k((',
      site: 'serverfault',
    })
  })

  it.each([
    ['pw', { fromdate: NOW_S - 7 * 86_400 }],
    [
      { from: '2026-01-01', to: '2026-01-31' },
      { fromdate: 1767225600, todate: 1769903999 },
    ],
  ] as const)('freshness %j → %j', (freshness, dates) => {
    expect(buildStackExchangeQuery(req({ freshness }), { now: NOW })).toMatchObject(dates)
  })
})

describe('mapStackExchangeResults on the recorded answer', () => {
  it('keeps all ten questions, accepted ones first, entities decoded, dates read', () => {
    const body = recorded()
    const { results, dropped } = mapStackExchangeResults(body, req({ num: 10 }))
    expect(dropped).toBe(0)
    expect(results).toHaveLength(10)
    const acceptedCount = body.items.filter((i) => (i as { accepted_answer_id?: number }).accepted_answer_id).length
    expect(results.slice(0, acceptedCount).every((r) => r.extra?.accepted === true)).toBe(true)
    expect(results.slice(acceptedCount).every((r) => r.extra?.accepted === false)).toBe(true)
    expect(results.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(results[0]).toEqual({
      title: 'Rails 4 Authenticity Token',
      url: 'http://stackoverflow.com/questions/16258911/rails-4-authenticity-token',
      snippet: '123 votes, 9 answers (one accepted); tags: ruby-on-rails, ruby, ruby-on-rails-4, authenticity-token',
      publishedAt: '2013-04-28T02:25:33.000Z',
      provider: 'stackexchange',
      rank: 1,
      extra: {
        questionId: 16258911,
        score: 123,
        answerCount: 9,
        accepted: true,
        isAnswered: true,
        tags: ['ruby-on-rails', 'ruby', 'ruby-on-rails-4', 'authenticity-token'],
        viewCount: 77058,
        lastActivityAt: '2016-02-08T19:25:58.000Z',
      },
    })
    const titles = results.map((r) => r.title)
    expect(titles).toContain(
      'Upgrading to RSpec 3 and following deprecation notice results in "undefined method \'allow\'"',
    )
    expect(titles).toContain("Rails ... Can't access object?")
    for (const r of results) expect(`${r.title} ${r.snippet}`).not.toMatch(/&(quot|#39|amp);|<\/?\w/)
  })

  it('uses the body for the snippet when asked with filter=withbody', () => {
    const { results } = mapStackExchangeResults(
      {
        items: [
          {
            question_id: 1,
            link: 'https://stackoverflow.com/questions/1/x',
            title: 'x',
            body: '<p>Use <code>Vec&lt;u8&gt;</code> &amp; friends</p>',
          },
        ],
      },
      req(),
    )
    expect(results[0]!.snippet).toBe('Use Vec<u8> & friends')
  })

  it('survives arbitrary items', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), (items) => {
        try {
          for (const r of mapStackExchangeResults({ items }, req({ num: 100 })).results)
            expect(r.url).toMatch(/^https?:\/\//)
        } catch (error) {
          expect(error).toBeInstanceOf(ProviderError)
        }
      }),
      { numRuns: 200 },
    )
  })
})

describe('quota and backoff', () => {
  it('reads the recorded quota, reset at midnight UTC', () => {
    expect(stackExchangeRateLimit(recorded(), NOW)).toEqual({
      quotaLimit: 300,
      quotaRemaining: 247,
      quotaResetMs: 12 * 3_600_000,
    })
  })
  it.each([
    ['Infinity (1e400 in the JSON)', JSON.parse('1e400') as number],
    ['400 days', 400 * 86_400],
    ['negative', -10],
  ])('ignores a backoff of %s', (_name, backoff) => {
    expect(stackExchangeRateLimit({ items: [], backoff }, NOW)).toBeUndefined()
  })

  it('turns backoff into nothing remaining for that long', () => {
    expect(stackExchangeRateLimit({ items: [], backoff: 10 }, NOW)).toEqual({ remaining: 0, resetMs: 10_000 })
  })
})

describe('mapStackExchangeError', () => {
  const res = (status: number, json: unknown) => ({ status, headers: {}, text: JSON.stringify(json), json })
  const error = (name: string, id: number, message: string) => ({
    error_id: id,
    error_name: name,
    error_message: message,
  })

  it.each([
    [
      error('throttle_violation', 502, 'too many requests from this IP, more requests available in 82216 seconds'),
      'quota',
      82_216_000,
    ],
    [
      error('throttle_violation', 502, 'too many requests from this IP, more requests available in 3 seconds'),
      'rate_limited',
      3000,
    ],
    [error('duplicate_request', 409, 'duplicate request'), 'rate_limited', undefined],
    [error('bad_parameter', 400, 'key'), 'auth', undefined],
    [error('access_denied', 403, 'access denied'), 'auth', undefined],
    [error('bad_parameter', 400, 'pagesize'), 'bad_request', undefined],
    [error('temporarily_unavailable', 503, 'temporarily unavailable'), 'upstream', undefined],
  ])('%j → %s', (body, kind, retryAfterMs) => {
    const err = mapStackExchangeError(res(400, body), ['emuTestKey0001zz(('])
    expect(err).toMatchObject({ kind, code: body.error_name, provider: 'stackexchange' })
    expect(err?.retryAfterMs).toBe(retryAfterMs)
  })

  it('marks only unavailability as retryable', () => {
    expect(mapStackExchangeError(res(400, error('bad_parameter', 400, 'q')))?.retryable).toBe(false)
    expect(mapStackExchangeError(res(503, error('temporarily_unavailable', 503, '')))?.retryable).toBe(true)
    expect(mapStackExchangeError(res(500, { nope: 1 }))).toBeUndefined()
  })

  it('reads the wait in time linear in the message, even a long run of digits without "seconds"', () => {
    const throttled = (n: number) =>
      res(400, error('throttle_violation', 502, `in ${'9'.repeat(n)} minutes, 3 seconds`))
    const growth = measureGrowth(throttled, (r) => mapStackExchangeError(r), {
      n: 2000,
      runs: 5,
      retryAbove: LINEAR_GROWTH_LIMIT,
    })
    expect(growth.ratio, JSON.stringify(growth)).toBeLessThan(LINEAR_GROWTH_LIMIT)
    expect(mapStackExchangeError(throttled(5))?.retryAfterMs).toBe(3000)
  })
})
