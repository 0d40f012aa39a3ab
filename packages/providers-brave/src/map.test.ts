import { readFileSync } from 'node:fs'
import { ProviderError, ProviderRequestSchema, type ParsedProviderRequest } from '@search-layer/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  buildBraveQuery,
  buildBraveQueryText,
  mapBraveResults,
  parseBraveResponse,
  toBraveCountry,
  toBraveLanguage,
} from './map.js'
import { mapBraveError, parseBraveRateLimit } from './errors.js'
import { BraveSearchQuerySchema } from './request-schema.js'

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../test/fixtures/${name}`, import.meta.url), 'utf8'))
const req = (input: Record<string, unknown>): ParsedProviderRequest =>
  ProviderRequestSchema.parse({ query: 'rust async', ...input })

describe('buildBraveQuery', () => {
  it('asks for plain text, extra snippets and moderate safesearch by default', () => {
    const q = buildBraveQuery(req({ num: 5 }))
    expect(q).toEqual({
      q: 'rust async',
      count: 5,
      text_decorations: false,
      extra_snippets: true,
      safesearch: 'moderate',
    })
    expect(BraveSearchQuerySchema.parse(q)).toEqual(q)
  })

  it.each([
    [1, 1],
    [20, 20],
    [21, 20],
    [100, 20],
  ])('num %i → count %i (Brave caps a page at 20)', (num, count) => {
    expect(buildBraveQuery(req({ num })).count).toBe(count)
  })

  it.each([
    ['pd', 'pd'],
    ['pw', 'pw'],
    ['pm', 'pm'],
    ['py', 'py'],
    [{ from: '2025-01-01', to: '2025-03-31' }, '2025-01-01to2025-03-31'],
  ])('freshness %j → %s', (freshness, expected) => {
    expect(buildBraveQuery(req({ freshness })).freshness).toBe(expected)
  })

  it.each([
    ['en', 'en'],
    ['en-US', 'en'],
    ['en-GB', 'en-gb'],
    ['zh', 'zh-hans'],
    ['zh-CN', 'zh-hans'],
    ['zh-Hans-CN', 'zh-hans'],
    ['zh-TW', 'zh-hant'],
    ['zh-Hant', 'zh-hant'],
    ['zh-HK', 'zh-hant'],
    ['ja', 'jp'],
    ['ja-JP', 'jp'],
    ['pt-BR', 'pt-br'],
    ['pt', 'pt-pt'],
    ['pt-PT', 'pt-pt'],
    ['no', 'nb'],
    ['nb-NO', 'nb'],
    ['iw', 'he'],
    ['de-AT', 'de'],
    ['xx', undefined],
    ['tlh', undefined],
  ])('language %s → search_lang %s', (language, expected) => {
    expect(toBraveLanguage(language)).toBe(expected)
    expect(buildBraveQuery(req({ language })).search_lang).toBe(expected)
  })

  it.each([
    ['us', 'US'],
    ['GB', 'GB'],
    ['uk', 'GB'],
    ['cn', 'CN'],
    ['zz', undefined],
    ['ng', undefined],
  ])('country %s → %s (unknown ones dropped rather than a 422)', (country, expected) => {
    expect(toBraveCountry(country)).toBe(expected)
    expect(buildBraveQuery(req({ country })).country).toBe(expected)
  })

  it('turns domain filters into site: operators', () => {
    expect(buildBraveQueryText(req({ includeDomains: ['docs.rs'] }))).toBe('rust async site:docs.rs')
    expect(
      buildBraveQueryText(req({ includeDomains: ['docs.rs', 'github.com'], excludeDomains: ['reddit.com'] })),
    ).toBe('rust async (site:docs.rs OR site:github.com) -site:reddit.com')
  })

  it('keeps q within Brave limits, dropping operators that do not fit', () => {
    const long = 'word '.repeat(120).trim()
    const q = buildBraveQueryText(req({ query: long, includeDomains: ['docs.rs'] }))
    expect(q.length).toBeLessThanOrEqual(400)
    expect(q.split(' ').length).toBeLessThanOrEqual(50)
    expect(q).not.toContain('site:')
  })
})

describe('mapBraveResults', () => {
  const body = parseBraveResponse(fixture('web-search.json'))

  it('normalises a realistic answer', () => {
    const { results, dropped } = mapBraveResults(body, req({ num: 10 }))
    expect(dropped).toBe(1)
    expect(results).toHaveLength(3)
    expect(results[0]).toEqual({
      title: 'Tokio vs async-std & smol: choosing a Rust async runtime',
      url: 'https://blog.example.dev/posts/rust-async-runtimes',
      snippet: 'A practical comparison of Tokio, async-std and smol — scheduling, I/O drivers and ecosystem support.',
      publishedAt: '2025-10-02T14:10:05.000Z',
      provider: 'brave',
      rank: 1,
      extra: {
        extraSnippets: [
          'Tokio is a multi-threaded, work-stealing runtime "batteries included".',
          'smol is a small and fast runtime built from composable crates.',
        ],
        age: 'October 2, 2025',
        language: 'en',
        siteName: 'Example Dev Blog',
        favicon: 'https://imgs.search.brave.com/abc/favicon.png',
      },
    })
    // Empty description falls back to the first extra snippet; a missing page_age is null.
    expect(results[1]).toMatchObject({
      snippet: 'This book aims to be a comprehensive guide to async programming in Rust.',
      publishedAt: null,
      rank: 2,
    })
    // Rank is the position in Brave's list, so the dropped third entry leaves a gap.
    expect(results[2]).toMatchObject({ rank: 4, publishedAt: '2024-03-18T00:00:00.000Z' })
  })

  it('caps to num and enforces domain filters on results', () => {
    expect(mapBraveResults(body, req({ num: 1 })).results).toHaveLength(1)
    const only = mapBraveResults(body, req({ num: 10, includeDomains: ['rust-lang.org'] })).results
    expect(only.map((r) => r.url)).toEqual(['https://users.rust-lang.org/t/which-async-runtime/100234'])
    const without = mapBraveResults(body, req({ num: 10, excludeDomains: ['example.dev'] })).results
    expect(without.map((r) => r.rank)).toEqual([2, 4])
  })

  it('treats a body without a web section as no results', () => {
    expect(mapBraveResults(parseBraveResponse({ type: 'search', query: { original: 'x' } }), req({}))).toEqual({
      results: [],
      dropped: 0,
    })
  })

  it.each([['javascript:alert(1)'], ['ftp://example.com/file'], [''], [null], [42]])(
    'drops a result whose url is %j',
    (url) => {
      const mapped = mapBraveResults(parseBraveResponse({ web: { results: [{ title: 't', url }] } }), req({}))
      expect(mapped).toEqual({ results: [], dropped: 1 })
    },
  )
})

describe('parseBraveResponse', () => {
  it.each([[null], ['text'], [[]], [{ web: { results: 'nope' } }]])('rejects %j with bad_response', (body) => {
    expect(() => parseBraveResponse(body)).toThrow(expect.objectContaining({ kind: 'bad_response', provider: 'brave' }))
  })

  it('survives arbitrary JSON: only ProviderError escapes, results are always valid', () => {
    const arbitraryResult = fc.record(
      {
        title: fc.oneof(fc.string(), fc.constant(null), fc.integer()),
        url: fc.oneof(fc.webUrl(), fc.string(), fc.constant(null)),
        description: fc.oneof(fc.string(), fc.constant(null)),
        page_age: fc.oneof(
          fc.string(),
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 19)),
          fc.constant(null),
        ),
        extra_snippets: fc.oneof(fc.array(fc.string()), fc.constant(null), fc.string()),
      },
      { requiredKeys: [] },
    )
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({ web: fc.record({ results: fc.array(fc.oneof(arbitraryResult, fc.jsonValue())) }) }),
    )
    fc.assert(
      fc.property(body, fc.integer({ min: 1, max: 100 }), (input, num) => {
        try {
          const mapped = mapBraveResults(parseBraveResponse(input), req({ num }))
          for (const r of mapped.results) {
            expect(r.url).toMatch(/^https?:\/\//)
            expect(typeof r.title).toBe('string')
            expect(typeof r.snippet).toBe('string')
            if (r.publishedAt !== null) expect(new Date(r.publishedAt).toISOString()).toBe(r.publishedAt)
          }
        } catch (error) {
          expect(error).toBeInstanceOf(ProviderError)
        }
      }),
      { numRuns: 500 },
    )
  })
})

const NOW_MS = Date.parse('2026-02-11T01:02:58Z')

describe('parseBraveRateLimit', () => {
  it('reads the two-valued headers as per-second and per-month windows', () => {
    expect(
      parseBraveRateLimit(
        {
          'x-ratelimit-limit': '1, 15000',
          'x-ratelimit-remaining': '0, 14877',
          'x-ratelimit-reset': '1, 1419704',
        },
        NOW_MS,
      ),
    ).toEqual({
      limit: 1,
      remaining: 0,
      resetMs: 1000,
      quotaLimit: 15000,
      quotaRemaining: 14877,
      quotaResetMs: 1419704000,
    })
  })

  it('leaves out a reset of 400 digits or in 9999 rather than keep a key waiting for it', () => {
    const headers = {
      'x-ratelimit-limit': '1, 15000',
      'x-ratelimit-remaining': '0, 0',
      'x-ratelimit-reset': `${'9'.repeat(400)}, 253402300799`,
    }
    expect(parseBraveRateLimit(headers, NOW_MS)).toEqual({
      limit: 1,
      remaining: 0,
      quotaLimit: 15000,
      quotaRemaining: 0,
    })
  })

  it('is undefined without headers and ignores garbage', () => {
    expect(parseBraveRateLimit({}, NOW_MS)).toBeUndefined()
    expect(parseBraveRateLimit({ 'x-ratelimit-limit': 'lots' }, NOW_MS)).toBeUndefined()
  })

  it('reads a reset sent as a Unix time as the time left until it', () => {
    const reset = `${NOW_MS / 1000 + 1}, ${NOW_MS / 1000 + 86_400}`
    expect(parseBraveRateLimit({ 'x-ratelimit-reset': reset }, NOW_MS)).toEqual({
      resetMs: 1000,
      quotaResetMs: 86_400_000,
    })
  })
})

describe('mapBraveError', () => {
  const res = (status: number, json: unknown, headers: Record<string, string> = {}, retryAfterMs?: number) => ({
    status,
    headers,
    text: JSON.stringify(json),
    json,
    retryAfterMs,
  })

  it.each([
    ['422 SUBSCRIPTION_TOKEN_INVALID', res(422, fixture('error-422-token.json')), 'auth'],
    [
      '422 VALIDATION about the token',
      res(422, {
        type: 'ErrorResponse',
        error: { status: 422, code: 'VALIDATION', meta: { errors: [{ loc: ['header', 'x-subscription-token'] }] } },
      }),
      'auth',
    ],
    // A real 422 VALIDATION with an empty meta (test/fixtures/recorded) was a parameter problem, not the token.
    [
      '422 VALIDATION without meta',
      res(422, { type: 'ErrorResponse', error: { status: 422, code: 'VALIDATION' } }),
      'bad_request',
    ],
    ['422 VALIDATION about count', res(422, fixture('error-422-validation.json')), 'bad_request'],
    ['401', res(401, {}), 'auth'],
    ['429 RATE_LIMITED', res(429, fixture('error-429-rate.json')), 'rate_limited'],
    ['429 QUOTA_LIMITED', res(429, fixture('error-429-quota.json')), 'quota'],
  ])('%s → %s', (_label, response, kind) => {
    expect(mapBraveError(response)).toMatchObject({ kind, provider: 'brave', status: response.status })
  })

  it.each([
    [
      res(429, fixture('error-429-quota.json')),
      'brave monthly quota exhausted (HTTP 429 QUOTA_LIMITED): Request quota limit exceeded for plan. ' +
        'Plan "Free" allows 1 request per second (1 already used this second); 2,001 of 2,000 monthly requests used. ' +
        'Wait for the monthly reset or upgrade the plan.',
    ],
    [
      res(422, fixture('error-422-validation.json')),
      'brave rejected the request parameters (HTTP 422 VALIDATION): Unable to validate request parameter(s). ' +
        'Failed: query.count: Input should be less than or equal to 20.',
    ],
    [
      res(422, fixture('error-422-token.json')),
      'brave rejected the subscription token (HTTP 422 SUBSCRIPTION_TOKEN_INVALID): ' +
        'The provided subscription token is invalid. Check BRAVE_API_KEY.',
    ],
    [
      res(500, { type: 'ErrorResponse', error: { status: 500, code: 'INTERNAL_ERROR', detail: 'Upstream timeout' } }),
      'brave server error (HTTP 500): Upstream timeout.',
    ],
  ])('keeps Brave’s own words and turns meta into a sentence: %#', (response, message) => {
    expect(mapBraveError(response)?.message).toBe(message)
  })

  it('uses Retry-After, else the per-second reset, for rate limits', () => {
    expect(mapBraveError(res(429, fixture('error-429-rate.json'), {}, 3000))).toMatchObject({
      retryAfterMs: 3000,
      retryable: true,
    })
    expect(mapBraveError(res(429, fixture('error-429-rate.json'), { 'x-ratelimit-reset': '1, 86400' }))).toMatchObject({
      retryAfterMs: 1000,
    })
  })

  it('leaves plain 5xx to the status-based default and never leaks the token', () => {
    expect(mapBraveError(res(503, { oops: true }))).toBeUndefined()
    const token = 'BSAsecretsecretsecret123'
    const err = mapBraveError(
      res(422, { error: { code: 'OPTION_NOT_IN_PLAN', detail: `token ${token} lacks this` } }),
      [token],
    )
    expect(err?.kind).toBe('bad_request')
    expect(err?.message).not.toContain(token)
  })
})

describe('limits stated in an error body', () => {
  const res = (status: number, json: unknown) => ({
    status,
    headers: {},
    text: JSON.stringify(json),
    json,
    retryAfterMs: undefined,
  })
  it("carries the plan's rate and what is left of the monthly quota, for pacing", () => {
    expect(mapBraveError(res(429, fixture('error-429-rate.json')))?.limits).toEqual({
      perSecond: 1,
      quotaLimit: 2000,
      quotaRemaining: 1880,
    })
    expect(mapBraveError(res(429, fixture('error-429-quota.json')))?.limits).toMatchObject({ quotaRemaining: 0 })
  })

  it('states none when the body has no meta', () => {
    expect(mapBraveError(res(429, { type: 'ErrorResponse', error: { code: 'RATE_LIMITED' } }))?.limits).toBeUndefined()
  })
})
