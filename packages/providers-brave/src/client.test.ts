import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ProviderErrorKind, ProviderResponseSchema } from '@search-layer/core'
import { faultTimeLimit, providerFailure, type Emulator } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { createBraveProvider } from './client.js'

const emu = useEmulator()

describe('createBraveProvider against the emulator', () => {
  it('sends GET /res/v1/web/search with the token only in X-Subscription-Token', async () => {
    const brave = createBraveProvider({ env: emu.env })
    const res = await brave.search({ query: 'rust async runtime', num: 5 })
    const sent = emu.lastRequest('brave')
    expect(sent.method).toBe('GET')
    expect(sent.path).toBe(`${new URL(emu.urls.brave).pathname}/res/v1/web/search`)
    expect(sent.headers['x-subscription-token']).toBe(emu.keys.brave)
    expect(sent.headers.accept).toBe('application/json')
    expect(sent.query).toEqual({
      q: 'rust async runtime',
      count: '5',
      text_decorations: 'false',
      extra_snippets: 'true',
      safesearch: 'moderate',
    })
    expect(JSON.stringify(sent.query)).not.toContain(emu.keys.brave)
    expect(res.results.length).toBeGreaterThan(0)
    expect(res.results.length).toBeLessThanOrEqual(5)
  })

  it('maps the realistic response: plain text, absolute URLs, ISO dates, ranks, cost and rate limits', async () => {
    const res = await createBraveProvider({ env: emu.env }).search({
      query: 'typescript zod schema validation',
      num: 10,
    })
    expect(res.results.length).toBeGreaterThan(0)
    res.results.forEach((r, i) => {
      expect(r.provider).toBe('brave')
      expect(r.url).toMatch(/^https?:\/\/[^/]+/)
      expect(r.title.length).toBeGreaterThan(0)
      expect(r.title).not.toMatch(/<\/?strong>|&amp;|&#x27;/)
      expect(r.snippet).not.toMatch(/<\/?strong>|&amp;|&#x27;/)
      if (r.publishedAt !== null) expect(new Date(r.publishedAt).toISOString()).toBe(r.publishedAt)
      if (i > 0) expect(r.rank).toBeGreaterThan(res.results[i - 1]!.rank)
    })
    expect(res.cost).toEqual({ usd: 0.005, credits: 1, basis: 'estimated' })
    expect(ProviderResponseSchema.parse(res)).toMatchObject({ dropped: 0 })
    expect(res.rateLimit).toMatchObject({ limit: 1, quotaLimit: 15000, resetMs: 1000 })
    expect(res.rateLimit?.quotaRemaining).toEqual(expect.any(Number))
  })

  it.each([
    ['pd', 'pd'],
    ['pw', 'pw'],
    ['pm', 'pm'],
    ['py', 'py'],
    [{ from: '2025-01-01', to: '2025-06-30' }, '2025-01-01to2025-06-30'],
  ] as const)('sends freshness %j as %s', async (freshness, expected) => {
    const res = await createBraveProvider({ env: emu.env }).search({ query: 'node release notes', freshness })
    expect(emu.lastRequest('brave').query.freshness).toBe(expected)
    for (const r of res.results)
      if (r.publishedAt && typeof freshness === 'object')
        expect(r.publishedAt.slice(0, 10) >= freshness.from).toBe(true)
  })

  it('sends num > 20 as count=20, language and country in Brave codes, and vendor options', async () => {
    await createBraveProvider({ env: emu.env, safesearch: 'strict', extraSnippets: false }).search({
      query: '東京 天気',
      num: 50,
      language: 'ja-JP',
      country: 'jp',
    })
    expect(emu.lastRequest('brave').query).toMatchObject({
      count: '20',
      search_lang: 'jp',
      country: 'JP',
      safesearch: 'strict',
      extra_snippets: 'false',
    })
    await createBraveProvider({ env: emu.env }).search({ query: '天气', language: 'zh-TW', country: 'ng' })
    expect(emu.lastRequest('brave').query.search_lang).toBe('zh-hant')
    expect(emu.lastRequest('brave').query).not.toHaveProperty('country')
  })

  it.each([
    ['ja', 'jp', 'jp', 'JP'],
    ['zh-CN', 'zh-hans', 'cn', 'CN'],
    ['zh-Hant-TW', 'zh-hant', 'tw', 'TW'],
    ['pt-BR', 'pt-br', 'br', 'BR'],
    ['pt', 'pt-pt', 'pt', 'PT'],
    ['en-GB', 'en-gb', 'uk', 'GB'],
    ['no', 'nb', 'no', 'NO'],
    ['tlh', undefined, 'ng', undefined],
  ])(
    'language %s → search_lang %s, country %s → %s, accepted by Brave',
    async (language, searchLang, country, braveCountry) => {
      const res = await createBraveProvider({ env: emu.env, retries: 0 }).search({
        query: 'open source search',
        language,
        country,
      })
      const sent = emu.lastRequest('brave').query
      expect(sent.search_lang).toBe(searchLang)
      expect(sent.country).toBe(braveCountry)
      expect(res.results.length).toBeGreaterThan(0)
    },
  )

  it('sends domain filters as site: operators and enforces them on the results', async () => {
    const res = await createBraveProvider({ env: emu.env }).search({
      query: 'react hooks',
      includeDomains: ['react.dev', 'github.com'],
      excludeDomains: ['medium.com'],
    })
    expect(emu.lastRequest('brave').query.q).toBe('react hooks (site:react.dev OR site:github.com) -site:medium.com')
    expect(res.results.length).toBeGreaterThan(0)
    for (const r of res.results) expect(new URL(r.url).hostname).toMatch(/(^|\.)(react\.dev|github\.com)$/)
  })

  it('reads the key at call time and reports config when none is set', async () => {
    const home = mkdtempSync(join(tmpdir(), 'brave-home-'))
    const env = { HOME: home, SEARCH_LAYER_CONFIG: join(home, 'none.json'), BRAVE_API_URL: emu.urls.brave }
    const brave = createBraveProvider({ env })
    expect(brave.isConfigured()).toBe(false)
    const err = await providerFailure(brave.search({ query: 'x' }))
    expect(err).toMatchObject({ kind: 'config', retryable: false })
    expect(err.message).toContain('BRAVE_API_KEY')
    expect(brave.isConfigured({ ...env, BRAVE_API_KEY: emu.keys.brave })).toBe(true)
    const ok = await brave.search({ query: 'x' }, { env: { ...env, BRAVE_API_KEY: emu.keys.brave } })
    expect(ok.results.length).toBeGreaterThan(0)
    expect(emu.count('brave')).toBe(1)
  })

  it('rejects an invalid request with config, before any call', async () => {
    const err = await providerFailure(createBraveProvider({ env: emu.env }).search({ query: '' }))
    expect(err.kind).toBe('config')
    expect(emu.count('brave')).toBe(0)
  })

  it('maps a wrong token (real 422 SUBSCRIPTION_TOKEN_INVALID) to auth without leaking it', async () => {
    const token = 'BSAwrong-token-0123456789'
    const err = await providerFailure(
      createBraveProvider({ env: emu.env, apiKey: token, retries: 0 }).search({ query: 'x' }),
    )
    expect(err).toMatchObject({ kind: 'auth', status: 422, code: 'SUBSCRIPTION_TOKEN_INVALID', retryable: false })
    expect(err.message).not.toContain(token)
    expect(JSON.stringify(err)).not.toContain(token)
  })

  const faults: [string, Parameters<Emulator['fault']>[1], ProviderErrorKind, Record<string, unknown>][] = [
    ['401', { status: 401 }, 'auth', { status: 401 }],
    ['422 token', { status: 422, code: 'SUBSCRIPTION_TOKEN_INVALID' }, 'auth', { code: 'SUBSCRIPTION_TOKEN_INVALID' }],
    ['403 option not in plan', { status: 403, code: 'OPTION_NOT_IN_PLAN' }, 'auth', { status: 403 }],
    [
      '429 RATE_LIMITED + Retry-After',
      { status: 429, code: 'RATE_LIMITED', retryAfterSec: 7 },
      'rate_limited',
      { retryAfterMs: 7000, retryable: true },
    ],
    ['429 QUOTA_LIMITED', { status: 429, code: 'QUOTA_LIMITED' }, 'quota', { code: 'QUOTA_LIMITED', retryable: false }],
    ['500', { status: 500 }, 'upstream', { status: 500, retryable: true }],
    ['502', { status: 502 }, 'upstream', { status: 502 }],
    ['503', { status: 503 }, 'upstream', { status: 503 }],
    ['hang', { hang: true }, 'timeout', {}],
    ['connection reset', { reset: true }, 'network', {}],
    ['malformed JSON', { malformedJson: true }, 'bad_response', {}],
    ['HTML body', { html: true }, 'bad_response', {}],
    ['oversized body', { oversizedBytes: 300_000 }, 'bad_response', {}],
    ['endless body', { endlessBody: true }, 'bad_response', {}],
  ]

  it.each(faults)('fault %s → %s', async (_label, fault, kind, extra) => {
    emu.fault('brave', fault)
    const brave = createBraveProvider({ env: emu.env, retries: 0, timeoutMs: faultTimeLimit(fault), maxBytes: 200_000 })
    const err = await providerFailure(brave.search({ query: 'fault injection' }))
    expect(err).toMatchObject({ kind, provider: 'brave', ...extra })
    expect(err.message).not.toContain(emu.keys.brave)
  })

  it('uses the per-second X-RateLimit-Reset when a 429 has no Retry-After', async () => {
    emu.fault('brave', { status: 429, code: 'RATE_LIMITED' })
    const err = await providerFailure(createBraveProvider({ env: emu.env, retries: 0 }).search({ query: 'x' }))
    expect(err).toMatchObject({ kind: 'rate_limited', retryAfterMs: 1000 })
  })

  it('retries once after a 503 and succeeds', async () => {
    emu.fault('brave', { status: 503, times: 1 })
    const res = await createBraveProvider({ env: emu.env, retries: 1 }).search({ query: 'retry me' })
    expect(res.results.length).toBeGreaterThan(0)
    expect(emu.count('brave')).toBe(2)
  })

  it('stops at ctx.deadlineAt and honours cancellation from either signal', async () => {
    emu.fault('brave', { hang: true })
    const brave = createBraveProvider({ env: emu.env, retries: 0 })
    const started = Date.now()
    expect(await providerFailure(brave.search({ query: 'x' }, { deadlineAt: Date.now() + 250 }))).toMatchObject({
      kind: 'timeout',
    })
    expect(Date.now() - started).toBeLessThan(2000)
    const viaCtx = new AbortController()
    setTimeout(() => viaCtx.abort(), 50)
    expect(await providerFailure(brave.search({ query: 'x' }, { signal: viaCtx.signal }))).toMatchObject({
      kind: 'timeout',
      retryable: false,
    })
    const viaRequest = new AbortController()
    setTimeout(() => viaRequest.abort(), 50)
    expect(await providerFailure(brave.search({ query: 'x', signal: viaRequest.signal }))).toMatchObject({
      kind: 'timeout',
      retryable: false,
    })
  })
})

describe('query operators', () => {
  it('sends every declared filter natively: operators in q, the range in freshness, the language in search_lang', async () => {
    await createBraveProvider({ env: emu.env }).search({
      query: 'error handling in rust',
      includeDomains: ['docs.rs'],
      excludeDomains: ['reddit.com'],
      freshness: { from: '2024-06-01', to: '2024-12-31' },
      language: 'de',
      phrases: ['error handling'],
      excludeTerms: ['tokio'],
      fileTypes: ['pdf'],
    })
    expect(emu.lastRequest('brave').query).toMatchObject({
      q: '"error handling" in rust -tokio filetype:pdf site:docs.rs -site:reddit.com',
      freshness: '2024-06-01to2024-12-31',
      search_lang: 'de',
    })
  })
})
