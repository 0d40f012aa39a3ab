import { readFileSync } from 'node:fs'
import { ProviderError, ProviderRequestSchema } from '@search-layer/core'
import type { HttpErrorResponse } from '@search-layer/core/http'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { tavilyCountry } from './countries.js'
import { buildTavilyRequest, mapTavilyError, mapTavilyResponse, rateLimitFromHeaders } from './map.js'
import { TavilySearchRequestSchema } from './request-schema.js'

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../test/fixtures/${name}`, import.meta.url), 'utf8'))
const req = (input: Record<string, unknown>) => ProviderRequestSchema.parse({ query: 'node lts', ...input })
const general = { searchDepth: 'basic', topic: 'general', includeAnswer: false } as const

describe('buildTavilyRequest', () => {
  it('sends the defaults, caps max_results at 20 and asks for usage', () => {
    const body = buildTavilyRequest(req({ num: 50 }), general)
    expect(body).toEqual({
      query: 'node lts',
      search_depth: 'basic',
      topic: 'general',
      max_results: 20,
      include_answer: false,
      include_usage: true,
    })
    expect(TavilySearchRequestSchema.parse(body)).toEqual(body)
    expect(JSON.stringify(body)).not.toContain('api_key')
  })

  it.each([
    ['pd', 'day'],
    ['pw', 'week'],
    ['pm', 'month'],
    ['py', 'year'],
  ] as const)('general freshness %s → time_range %s', (freshness, range) => {
    const body = buildTavilyRequest(req({ freshness }), general)
    expect(body.time_range).toBe(range)
    expect(body.days).toBeUndefined()
  })

  it.each([
    ['pd', 1],
    ['pw', 7],
    ['pm', 30],
    ['py', 365],
  ] as const)('news freshness %s → days %i', (freshness, days) => {
    const body = buildTavilyRequest(req({ freshness }), { ...general, topic: 'news' })
    expect(body).toMatchObject({ topic: 'news', days })
    expect(body.time_range).toBeUndefined()
  })

  it('maps a {from,to} range to start_date/end_date', () => {
    const body = buildTavilyRequest(req({ freshness: { from: '2025-01-01', to: '2025-03-31' } }), general)
    expect(body).toMatchObject({ start_date: '2025-01-01', end_date: '2025-03-31' })
    expect(body.time_range).toBeUndefined()
  })

  it('passes include/exclude domains, deduplicated and lowercased', () => {
    const body = buildTavilyRequest(
      req({ includeDomains: ['NodeJS.org', 'nodejs.org', 'github.com'], excludeDomains: ['w3schools.com'] }),
      general,
    )
    expect(body.include_domains).toEqual(['nodejs.org', 'github.com'])
    expect(body.exclude_domains).toEqual(['w3schools.com'])
  })

  it('omits empty domain lists', () => {
    const body = buildTavilyRequest(req({ includeDomains: [], excludeDomains: [] }), general)
    expect(body).not.toHaveProperty('include_domains')
    expect(body).not.toHaveProperty('exclude_domains')
  })

  it.each([
    ['us', 'united states'],
    ['GB', 'united kingdom'],
    ['cn', 'china'],
    ['de', 'germany'],
  ])('maps country %s → %s', (code, name) => {
    expect(buildTavilyRequest(req({ country: code }), general).country).toBe(name)
  })

  it('drops unknown country codes and ignores country for news', () => {
    expect(buildTavilyRequest(req({ country: 'zz' }), general)).not.toHaveProperty('country')
    expect(buildTavilyRequest(req({ country: 'us' }), { ...general, topic: 'news' })).not.toHaveProperty('country')
  })

  it('forwards searchDepth and includeAnswer', () => {
    expect(
      buildTavilyRequest(req({}), { searchDepth: 'advanced', topic: 'general', includeAnswer: true }),
    ).toMatchObject({
      search_depth: 'advanced',
      include_answer: true,
    })
  })
})

describe('tavilyCountry', () => {
  it('never maps to anything but a lowercase name', () => {
    fc.assert(
      fc.property(fc.string(), (code) => {
        const name = tavilyCountry(code)
        expect(name === undefined || name === name.toLowerCase()).toBe(true)
      }),
    )
  })
  it('does not resolve prototype keys', () => {
    expect(tavilyCountry('constructor')).toBeUndefined()
  })
})

describe('mapTavilyResponse', () => {
  it('normalises a realistic general answer', () => {
    const res = mapTavilyResponse(fixture('search-general.json'), { searchDepth: 'basic' })
    expect(res.dropped).toBe(1)
    expect(res.answer).toContain('Node.js 22')
    expect(res.cost).toEqual({ credits: 1, basis: 'reported' })
    expect(res.results).toHaveLength(3)
    expect(res.results[0]).toEqual({
      title: 'Node.js — Node.js Releases',
      url: 'https://nodejs.org/en/about/previous-releases',
      snippet: expect.stringContaining('Major Node.js versions enter Current release status'),
      publishedAt: null,
      provider: 'tavily',
      rank: 1,
      providerScore: 0.91826,
      extra: { favicon: 'https://nodejs.org/static/images/favicons/favicon.png' },
    })
    expect(res.results[1]?.snippet).toBe(
      'Release schedule & LTS policy. Node.js 22 – Active LTS until 2025-10-21, maintenance until 2027-04-30.',
    )
    expect(res.results.map((r) => r.rank)).toEqual([1, 2, 4])
  })

  it('turns HTTP-date published_date into ISO and bad dates into null', () => {
    const res = mapTavilyResponse(fixture('search-news.json'), { searchDepth: 'advanced' })
    expect(res.results[0]?.publishedAt).toBe('2025-01-22T14:03:00.000Z')
    expect(res.results[1]?.publishedAt).toBeNull()
    expect(res.dropped).toBe(1)
    expect(res.answer).toBeUndefined()
    expect(res.cost).toEqual({ credits: 2, basis: 'estimated' })
  })

  it('falls back to the host when the title is empty', () => {
    const res = mapTavilyResponse({ results: [{ url: 'https://www.example.org/a', title: null, content: null }] })
    expect(res.results[0]).toMatchObject({ title: 'example.org', snippet: '' })
  })

  it.each([null, 'text', 42, [], {}, { results: 'no' }, { results: null }])('rejects %j as bad_response', (body) => {
    expect(() => mapTavilyResponse(body)).toThrow(expect.objectContaining({ kind: 'bad_response', provider: 'tavily' }))
  })

  it('reports rate-limit headers', () => {
    const res = mapTavilyResponse(
      { results: [] },
      { headers: { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '97', 'x-ratelimit-reset': '30' } },
    )
    expect(res.rateLimit).toEqual({ limit: 100, remaining: 97, resetMs: 30_000 })
    expect(rateLimitFromHeaders({}, 0)).toBeUndefined()
  })

  it('reads a reset that is a Unix time as the time left until it', () => {
    const nowMs = Date.parse('2026-02-11T01:02:58Z')
    const headers = { 'x-ratelimit-limit': '100', 'x-ratelimit-reset': String(nowMs / 1000 + 45) }
    expect(rateLimitFromHeaders(headers, nowMs)).toEqual({ limit: 100, resetMs: 45_000 })
  })

  it('never throws anything but ProviderError, and every kept result is well-formed (fuzz)', () => {
    const item = fc.record(
      {
        url: fc.oneof(fc.webUrl(), fc.string(), fc.constant(null), fc.integer()),
        title: fc.oneof(fc.string(), fc.constant(null), fc.integer()),
        content: fc.oneof(fc.string(), fc.constant(null)),
        score: fc.oneof(fc.double(), fc.constant(null), fc.string()),
        published_date: fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()),
          fc.string(),
          fc.constant(null),
        ),
      },
      { requiredKeys: [] },
    )
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          results: fc.array(fc.oneof(item, fc.jsonValue())),
          answer: fc.oneof(fc.string(), fc.constant(null)),
          usage: fc.jsonValue(),
        },
        { requiredKeys: ['results'] },
      ),
    )
    fc.assert(
      fc.property(body, (input) => {
        try {
          const res = mapTavilyResponse(input)
          for (const r of res.results) {
            expect(r.url).toMatch(/^https?:\/\/[^/]/)
            expect(typeof r.title).toBe('string')
            expect(typeof r.snippet).toBe('string')
            expect(r.publishedAt === null || !Number.isNaN(Date.parse(r.publishedAt))).toBe(true)
          }
        } catch (error) {
          expect(error).toBeInstanceOf(ProviderError)
        }
      }),
      { numRuns: 500 },
    )
  })
})

const errorResponse = (status: number, json: unknown, retryAfterMs?: number): HttpErrorResponse => ({
  status,
  headers: {},
  text: JSON.stringify(json),
  json,
  ...(retryAfterMs !== undefined && { retryAfterMs }),
})

describe('mapTavilyError', () => {
  it.each([
    [401, 'auth', false],
    [403, 'auth', false],
    [429, 'rate_limited', true],
    [432, 'quota', false],
    [433, 'quota', false],
    [400, 'bad_request', false],
    [500, 'upstream', true],
    [502, 'upstream', true],
  ] as const)('HTTP %i → %s (retryable %s)', (status, kind, retryable) => {
    const err = mapTavilyError(errorResponse(status, { detail: { error: 'Something happened' } }))
    expect(err).toMatchObject({ kind, retryable, status, provider: 'tavily' })
  })

  it('says which quota was hit', () => {
    expect(
      mapTavilyError(errorResponse(432, { detail: { error: "This request exceeds your plan's set usage limit." } }))
        .message,
    ).toMatch(/plan or API-key usage limit/)
    expect(
      mapTavilyError(errorResponse(433, { detail: { error: 'This request exceeds the pay-as-you-go limit.' } }))
        .message,
    ).toMatch(/pay-as-you-go/)
  })

  it('carries Retry-After on 429', () => {
    expect(mapTavilyError(errorResponse(429, { detail: { error: 'Rate limit' } }, 3000))).toMatchObject({
      retryAfterMs: 3000,
    })
  })

  it('redacts the key and truncates long details', () => {
    const key = 'tvly-dev-ABCDEFGHIJKLMNOP'
    const err = mapTavilyError(
      errorResponse(401, { detail: { error: `Unauthorized: missing or invalid API key ${key} ${'x'.repeat(500)}` } }),
      [key],
    )
    expect(err.message).not.toContain(key)
    expect(err.message.length).toBeLessThan(400)
  })

  it('maps a key error sent with another status to auth, keeping Tavily’s words', () => {
    const err = mapTavilyError(errorResponse(400, { detail: { error: 'Invalid API key.' } }))
    expect(err).toMatchObject({ kind: 'auth', status: 400 })
    expect(err.message).toBe('tavily rejected the API key (HTTP 400); check TAVILY_API_KEY: Invalid API key.')
  })

  it('accepts a bare-string detail', () => {
    expect(mapTavilyError(errorResponse(400, { detail: 'Invalid country' })).message).toContain('Invalid country')
  })
})
