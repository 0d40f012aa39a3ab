import { readFileSync } from 'node:fs'
import { type ParsedProviderRequest, ProviderError, ProviderRequestSchema } from '@search-layer/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  buildExaRequest,
  exaCost,
  mapExaError,
  mapExaResults,
  parseExaRateLimit,
  parseExaResponse,
  toExaDateWindow,
} from './map.js'
import { ExaSearchRequestSchema } from './request-schema.js'

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../test/fixtures/${name}`, import.meta.url), 'utf8'))
const req = (input: Record<string, unknown>): ParsedProviderRequest =>
  ProviderRequestSchema.parse({ query: 'llm survey', ...input })
const NOW = new Date('2026-11-20T12:00:00.000Z')

describe('buildExaRequest', () => {
  it('defaults to type auto and asks for capped highlights and text', () => {
    const body = buildExaRequest(req({ num: 5 }), { now: NOW })
    expect(body).toEqual({
      query: 'llm survey',
      type: 'auto',
      numResults: 5,
      contents: { highlights: { maxCharacters: 1000 }, text: { maxCharacters: 1000 } },
    })
    expect(ExaSearchRequestSchema.parse(body)).toEqual(body)
  })

  it.each([
    ['highlights', { highlights: { maxCharacters: 300 } }],
    ['text', { text: { maxCharacters: 300 } }],
    ['highlights+text', { highlights: { maxCharacters: 300 }, text: { maxCharacters: 300 } }],
  ] as const)('contents %s → %j', (contents, expected) => {
    expect(buildExaRequest(req({}), { contents, maxCharacters: 300 }).contents).toEqual(expected)
  })

  it.each([
    [1, 1],
    [100, 100],
  ])('num %i → numResults %i', (num, expected) => {
    expect(buildExaRequest(req({ num })).numResults).toBe(expected)
  })

  it.each([
    ['pd', { startPublishedDate: '2026-11-19T12:00:00.000Z' }],
    ['pw', { startPublishedDate: '2026-11-13T12:00:00.000Z' }],
    ['pm', { startPublishedDate: '2026-10-21T12:00:00.000Z' }],
    ['py', { startPublishedDate: '2025-11-20T12:00:00.000Z' }],
    [
      { from: '2025-01-01', to: '2025-03-31' },
      { startPublishedDate: '2025-01-01T00:00:00.000Z', endPublishedDate: '2025-03-31T23:59:59.999Z' },
    ],
  ])('freshness %j → %j', (freshness, expected) => {
    expect(toExaDateWindow(req({ freshness }).freshness, NOW)).toEqual(expected)
    const body = buildExaRequest(req({ freshness }), { now: NOW })
    expect(body).toMatchObject(expected)
    expect(ExaSearchRequestSchema.safeParse(body).success).toBe(true)
  })

  it('passes domain filters, country, type and category through', () => {
    const body = buildExaRequest(req({ excludeDomains: ['medium.com'], country: 'us' }), {
      type: 'deep',
      category: 'research paper',
    })
    expect(body).toMatchObject({
      type: 'deep',
      excludeDomains: ['medium.com'],
      userLocation: 'US',
      category: 'research paper',
    })
    expect(buildExaRequest(req({ includeDomains: ['arxiv.org'] })).includeDomains).toEqual(['arxiv.org'])
  })

  it('sends only includeDomains when both filters are given (Exa refuses the combination)', () => {
    const body = buildExaRequest(req({ includeDomains: ['example.org'], excludeDomains: ['blog.example.org'] }))
    expect(body.includeDomains).toEqual(['example.org'])
    expect(body).not.toHaveProperty('excludeDomains')
  })
})

describe('mapExaResults', () => {
  const body = parseExaResponse(fixture('search.json'))

  it('normalises a realistic answer', () => {
    const { results, dropped } = mapExaResults(body, req({ num: 10 }), 120)
    expect(dropped).toBe(1)
    expect(results).toHaveLength(3)
    expect(results[0]).toEqual({
      title: 'A Comprehensive Overview of Large Language Models',
      url: 'https://arxiv.org/abs/2307.06435',
      snippet:
        'Large Language Models (LLMs) have recently demonstrated remarkable capabilities in natural language processing tasks and beyond. … This success of LLMs has led to a large influx of research contributions in this direction.',
      publishedAt: '2023-07-12T00:00:00.000Z',
      provider: 'exa',
      rank: 1,
      providerScore: 0.3831,
      extra: {
        id: 'https://arxiv.org/abs/2307.06435',
        author: 'Humza Naveed, Asad Ullah Khan',
        favicon: 'https://arxiv.org/static/browse/0.3.4/images/icons/favicon-32x32.png',
        image: 'https://arxiv.org/static/browse/0.3.4/images/arxiv-logo-fb.png',
        highlights: [
          'Large Language Models (LLMs) have recently demonstrated remarkable capabilities in natural language processing tasks and beyond.',
          'This success of LLMs has led to a large influx of research contributions in this direction.',
        ],
      },
    })
    // Null title → hostname; no highlights → text, tags stripped, truncated on a word boundary.
    expect(results[1]?.title).toBe('www.example.org')
    expect(results[1]?.publishedAt).toBe('2025-02-28T09:15:30.512Z')
    expect(results[1]?.snippet.length).toBeLessThanOrEqual(121)
    expect(results[1]?.snippet).toMatch(/^# LLM survey notes This post collects notes .*…$/)
    // Only a summary → summary; date-only publishedDate → ISO.
    expect(results[2]).toMatchObject({
      snippet: 'A news round-up of what changed for LLMs in 2025.',
      publishedAt: '2025-01-05T00:00:00.000Z',
      rank: 4,
    })
  })

  it('caps to num and enforces domain filters', () => {
    expect(mapExaResults(body, req({ num: 1 })).results).toHaveLength(1)
    expect(
      mapExaResults(body, req({ excludeDomains: ['example.org', 'example.com'] })).results.map((r) => r.rank),
    ).toEqual([1])
    expect(mapExaResults(body, req({ includeDomains: ['example.com'] })).results.map((r) => r.url)).toEqual([
      'https://news.example.com/ai/2025/llms',
    ])
  })

  it('reports costDollars.total as a reported cost', () => {
    expect(exaCost(body)).toEqual({ usd: 0.007, basis: 'reported' })
    expect(exaCost(parseExaResponse({ results: [] }))).toBeUndefined()
  })
})

describe('parseExaResponse', () => {
  it.each([[null], [[]], [{}], [{ results: {} }], [{ error: 'Invalid API key', tag: 'INVALID_API_KEY' }]])(
    'rejects %j with bad_response',
    (b) => {
      expect(() => parseExaResponse(b)).toThrow(expect.objectContaining({ kind: 'bad_response', provider: 'exa' }))
    },
  )

  it('survives arbitrary JSON: only ProviderError escapes, results are always valid', () => {
    const result = fc.record(
      {
        id: fc.oneof(fc.string(), fc.constant(null)),
        url: fc.oneof(fc.webUrl(), fc.string(), fc.constant(null), fc.integer()),
        title: fc.oneof(fc.string(), fc.constant(null)),
        publishedDate: fc.oneof(
          fc.string(),
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          fc.constant(null),
        ),
        score: fc.oneof(fc.double(), fc.constant(null)),
        text: fc.oneof(fc.string(), fc.constant(null)),
        highlights: fc.oneof(fc.array(fc.string()), fc.constant(null)),
        summary: fc.oneof(fc.string(), fc.constant(null)),
      },
      { requiredKeys: [] },
    )
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({
        results: fc.array(fc.oneof(result, fc.jsonValue())),
        costDollars: fc.oneof(fc.jsonValue(), fc.record({ total: fc.double() })),
      }),
    )
    fc.assert(
      fc.property(body, fc.integer({ min: 1, max: 100 }), (input, num) => {
        try {
          const parsed = parseExaResponse(input)
          const { results } = mapExaResults(parsed, req({ num }))
          for (const r of results) {
            expect(r.url).toMatch(/^https?:\/\//)
            expect(typeof r.title).toBe('string')
            expect(typeof r.snippet).toBe('string')
            if (r.publishedAt !== null) expect(new Date(r.publishedAt).toISOString()).toBe(r.publishedAt)
          }
          const cost = exaCost(parsed)
          if (cost) expect(cost.usd).toBeGreaterThanOrEqual(0)
        } catch (error) {
          expect(error).toBeInstanceOf(ProviderError)
        }
      }),
      { numRuns: 500 },
    )
  })
})

describe('mapExaError', () => {
  const res = (status: number, json: unknown, retryAfterMs?: number) => ({
    status,
    headers: {},
    text: JSON.stringify(json),
    json,
    retryAfterMs,
  })

  it.each([
    [401, fixture('error-401.json'), 'auth', 'INVALID_API_KEY'],
    [402, fixture('error-402.json'), 'quota', 'NO_MORE_CREDITS'],
    [402, { error: 'API key budget exceeded', tag: 'API_KEY_BUDGET_EXCEEDED' }, 'quota', 'API_KEY_BUDGET_EXCEEDED'],
    [403, { error: 'Feature disabled', tag: 'FEATURE_DISABLED' }, 'auth', 'FEATURE_DISABLED'],
    [400, fixture('error-400.json'), 'bad_request', 'INVALID_NUM_RESULTS'],
    [429, { error: 'Rate limit exceeded' }, 'rate_limited', undefined],
  ])('%i → %s', (status, json, kind, code) => {
    expect(mapExaError(res(status, json, 2000))).toMatchObject({ kind, code, status, provider: 'exa' })
  })

  it('keeps Retry-After on 429 and marks 4xx refusals as not retryable', () => {
    expect(mapExaError(res(429, {}, 2000))).toMatchObject({ retryAfterMs: 2000, retryable: true })
    expect(mapExaError(res(400, fixture('error-400.json')))?.retryable).toBe(false)
  })

  it('keeps Exa’s words on a 5xx, leaves a bare 5xx to the default, and never leaks the key', () => {
    expect(mapExaError(res(502, { error: 'bad gateway' }))).toMatchObject({
      kind: 'upstream',
      retryable: true,
      message: 'exa server error (HTTP 502): bad gateway.',
    })
    expect(mapExaError(res(502, undefined))).toBeUndefined()
    const key = 'exa-key-0123456789abcdef'
    const err = mapExaError(res(400, { error: `bad key ${key} in body`, tag: 'INVALID_REQUEST_BODY' }), [key])
    expect(err?.message).not.toContain(key)
  })
})

describe('parseExaRateLimit', () => {
  it('reads single-valued headers when present', () => {
    expect(
      parseExaRateLimit({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9', 'x-ratelimit-reset': '1' }, 0),
    ).toEqual({
      limit: 10,
      remaining: 9,
      resetMs: 1000,
    })
    expect(parseExaRateLimit({}, 0)).toBeUndefined()
  })

  it('leaves out a reset in 9999', () => {
    const headers = { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '253402300799' }
    expect(parseExaRateLimit(headers, Date.parse('2026-02-11T01:02:28Z'))).toEqual({ limit: 10, remaining: 0 })
  })

  it("reads Exa's recorded reset (a Unix time in seconds) as the time left until it", () => {
    // Recorded by crewAI on Wed, 11 Feb 2026 01:02:58 GMT (test/fixtures/recorded/crewai--search-contents-text-1).
    const headers = { 'x-ratelimit-limit': '450', 'x-ratelimit-remaining': '405', 'x-ratelimit-reset': '1770771778' }
    expect(parseExaRateLimit(headers, Date.parse('2026-02-11T01:02:28Z'))).toEqual({
      limit: 450,
      remaining: 405,
      resetMs: 30_000,
    })
    expect(parseExaRateLimit(headers, Date.parse('2026-02-11T01:03:00Z'))?.resetMs).toBe(0)
  })
})
