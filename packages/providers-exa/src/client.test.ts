import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ProviderErrorKind, ProviderResponseSchema } from '@search-layer/core'
import { faultTimeLimit, providerFailure, type Emulator } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { createExaProvider } from './client.js'

const emu = useEmulator()
const NOW = new Date('2026-11-20T12:00:00.000Z')
const now = () => NOW

describe('createExaProvider against the emulator', () => {
  it('sends POST /search with the key only in x-api-key and explicit, capped contents', async () => {
    const res = await createExaProvider({ env: emu.env }).search(
      { query: 'survey of large language models', num: 7 },
      { now },
    )
    const sent = emu.lastRequest('exa')
    expect(sent.method).toBe('POST')
    expect(sent.path).toBe(`${new URL(emu.urls.exa).pathname}/search`)
    expect(sent.headers['x-api-key']).toBe(emu.keys.exa)
    expect(sent.headers['content-type']).toMatch(/^application\/json/)
    expect(sent.headers.authorization).toBeUndefined()
    expect(sent.body).toEqual({
      query: 'survey of large language models',
      type: 'auto',
      numResults: 7,
      contents: { highlights: { maxCharacters: 1000 }, text: { maxCharacters: 1000 } },
    })
    expect(JSON.stringify(sent.body)).not.toContain(emu.keys.exa)
    expect(res.results.length).toBeGreaterThan(0)
  })

  it('maps the realistic response: non-empty snippets, ISO dates, scores, reported cost', async () => {
    const res = await createExaProvider({ env: emu.env }).search(
      { query: 'how do rust async runtimes schedule tasks', num: 10 },
      { now },
    )
    expect(res.results.length).toBeGreaterThan(0)
    res.results.forEach((r, i) => {
      expect(r.provider).toBe('exa')
      expect(r.url).toMatch(/^https?:\/\/[^/]+/)
      expect(r.title.length).toBeGreaterThan(0)
      expect(r.snippet.length).toBeGreaterThan(0)
      expect(r.snippet.length).toBeLessThanOrEqual(1001)
      if (r.publishedAt !== null) expect(r.publishedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
      if (i > 0) expect(r.rank).toBeGreaterThan(res.results[i - 1]!.rank)
    })
    expect(res.cost).toEqual({ usd: expect.any(Number), basis: 'reported' })
    expect(ProviderResponseSchema.parse(res)).toMatchObject({ dropped: 0 })
    expect(res.cost?.usd).toBeGreaterThan(0)
  })

  it.each([
    ['pd', { startPublishedDate: '2026-11-19T12:00:00.000Z' }],
    ['pw', { startPublishedDate: '2026-11-13T12:00:00.000Z' }],
    ['pm', { startPublishedDate: '2026-10-21T12:00:00.000Z' }],
    ['py', { startPublishedDate: '2025-11-20T12:00:00.000Z' }],
    [
      { from: '2025-01-01', to: '2025-06-30' },
      { startPublishedDate: '2025-01-01T00:00:00.000Z', endPublishedDate: '2025-06-30T23:59:59.999Z' },
    ],
  ] as const)('sends freshness %j as %j', async (freshness, expected) => {
    const res = await createExaProvider({ env: emu.env }).search({ query: 'llm evaluation', freshness }, { now })
    expect(emu.lastRequest('exa').body).toMatchObject(expected)
    if (typeof freshness === 'string') expect(emu.lastRequest('exa').body).not.toHaveProperty('endPublishedDate')
    for (const r of res.results)
      if (r.publishedAt) expect(r.publishedAt >= expected.startPublishedDate.slice(0, 10)).toBe(true)
  })

  type Filters = { includeDomains?: string[]; excludeDomains?: string[] }
  it.each<[Filters, Filters, string[]]>([
    [{ includeDomains: ['arxiv.org'] }, { includeDomains: ['arxiv.org'] }, ['excludeDomains']],
    [{ excludeDomains: ['medium.com'] }, { excludeDomains: ['medium.com'] }, ['includeDomains']],
    [
      { includeDomains: ['github.com'], excludeDomains: ['gist.github.com'] },
      { includeDomains: ['github.com'] },
      ['excludeDomains'],
    ],
  ])('sends domain filters %j as %j', async (filters, expected, absent) => {
    const res = await createExaProvider({ env: emu.env }).search(
      { query: 'transformer attention', ...filters },
      { now },
    )
    const body = emu.lastRequest('exa').body
    expect(body).toMatchObject(expected)
    for (const key of absent) expect(body).not.toHaveProperty(key)
    expect(res.results.length).toBeGreaterThan(0)
    for (const r of res.results) {
      const host = new URL(r.url).hostname
      if (filters.includeDomains)
        expect(filters.includeDomains.some((d) => host === d || host.endsWith(`.${d}`))).toBe(true)
      if (filters.excludeDomains)
        expect(filters.excludeDomains.some((d) => host === d || host.endsWith(`.${d}`))).toBe(false)
    }
  })

  it('sends num (capped at 100), type, contents, category and country', async () => {
    await createExaProvider({
      env: emu.env,
      type: 'deep',
      contents: 'highlights',
      maxCharacters: 400,
      category: 'news',
    }).search({ query: 'chip export rules', num: 100, country: 'de' }, { now })
    expect(emu.lastRequest('exa').body).toEqual({
      query: 'chip export rules',
      type: 'deep',
      numResults: 100,
      contents: { highlights: { maxCharacters: 400 } },
      userLocation: 'DE',
      category: 'news',
    })
    await createExaProvider({ env: emu.env, contents: 'text' }).search({ query: 'x y' }, { now })
    expect(emu.lastRequest('exa').body).toMatchObject({ contents: { text: { maxCharacters: 1000 } } })
  })

  it.each(['auto', 'fast', 'instant', 'neural', 'keyword', 'deep-lite', 'deep', 'deep-reasoning'] as const)(
    'sends type %s and gets results',
    async (type) => {
      const res = await createExaProvider({ env: emu.env, type }).search(
        { query: 'vector databases compared' },
        { now },
      )
      expect(emu.lastRequest('exa').body).toMatchObject({ type })
      expect(res.results.length).toBeGreaterThan(0)
    },
  )

  it('reads the key at call time and reports config when none is set', async () => {
    const home = mkdtempSync(join(tmpdir(), 'exa-home-'))
    const env = { HOME: home, SEARCH_LAYER_CONFIG: join(home, 'none.json'), EXA_API_URL: emu.urls.exa }
    const exa = createExaProvider({ env })
    expect(exa.isConfigured()).toBe(false)
    const err = await providerFailure(exa.search({ query: 'x' }))
    expect(err).toMatchObject({ kind: 'config', retryable: false })
    expect(err.message).toContain('EXA_API_KEY')
    expect(exa.isConfigured({ ...env, EXA_API_KEY: emu.keys.exa })).toBe(true)
    expect(
      (await exa.search({ query: 'x' }, { env: { ...env, EXA_API_KEY: emu.keys.exa } })).results.length,
    ).toBeGreaterThan(0)
  })

  it('maps a wrong key (real 401 INVALID_API_KEY) to auth without leaking it', async () => {
    const key = 'exa-wrong-key-0123456789'
    const err = await providerFailure(
      createExaProvider({ env: emu.env, apiKey: key, retries: 0 }).search({ query: 'x' }),
    )
    expect(err).toMatchObject({ kind: 'auth', status: 401, code: 'INVALID_API_KEY', retryable: false })
    expect(err.message).not.toContain(key)
  })

  const faults: [string, Parameters<Emulator['fault']>[1], ProviderErrorKind, Record<string, unknown>][] = [
    ['401', { status: 401 }, 'auth', { code: 'INVALID_API_KEY' }],
    ['403 ACCESS_DENIED', { status: 403, code: 'ACCESS_DENIED' }, 'auth', { status: 403 }],
    [
      '402 NO_MORE_CREDITS',
      { status: 402, code: 'NO_MORE_CREDITS' },
      'quota',
      { code: 'NO_MORE_CREDITS', retryable: false },
    ],
    [
      '402 API_KEY_BUDGET_EXCEEDED',
      { status: 402, code: 'API_KEY_BUDGET_EXCEEDED' },
      'quota',
      { code: 'API_KEY_BUDGET_EXCEEDED' },
    ],
    ['429 + Retry-After', { status: 429, retryAfterSec: 3 }, 'rate_limited', { retryAfterMs: 3000, retryable: true }],
    ['400', { status: 400 }, 'bad_request', { retryable: false }],
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
    emu.fault('exa', fault)
    const exa = createExaProvider({ env: emu.env, retries: 0, timeoutMs: faultTimeLimit(fault), maxBytes: 200_000 })
    const err = await providerFailure(exa.search({ query: 'fault injection' }))
    expect(err).toMatchObject({ kind, provider: 'exa', ...extra })
    expect(err.message).not.toContain(emu.keys.exa)
  })

  it('retries once after a 503 and succeeds', async () => {
    emu.fault('exa', { status: 503, times: 1 })
    const res = await createExaProvider({ env: emu.env, retries: 1 }).search({ query: 'retry me' }, { now })
    expect(res.results.length).toBeGreaterThan(0)
    expect(emu.count('exa')).toBe(2)
  })

  it('stops at ctx.deadlineAt and honours cancellation from either signal', async () => {
    emu.fault('exa', { hang: true })
    const exa = createExaProvider({ env: emu.env, retries: 0 })
    const started = Date.now()
    expect(await providerFailure(exa.search({ query: 'x' }, { deadlineAt: Date.now() + 250 }))).toMatchObject({
      kind: 'timeout',
    })
    expect(Date.now() - started).toBeLessThan(2000)
    const viaCtx = new AbortController()
    setTimeout(() => viaCtx.abort(), 50)
    expect(await providerFailure(exa.search({ query: 'x' }, { signal: viaCtx.signal }))).toMatchObject({
      kind: 'timeout',
      retryable: false,
    })
    const viaRequest = new AbortController()
    setTimeout(() => viaRequest.abort(), 50)
    expect(await providerFailure(exa.search({ query: 'x', signal: viaRequest.signal }))).toMatchObject({
      kind: 'timeout',
      retryable: false,
    })
  })
})

describe('query operators', () => {
  it('sends domains, the date range, one phrase as includeText and one term as excludeText', async () => {
    await createExaProvider({ env: emu.env }).search({
      query: 'error handling in rust',
      includeDomains: ['docs.rs'],
      freshness: { from: '2024-06-01', to: '2024-12-31' },
      phrases: ['error handling'],
      excludeTerms: ['tokio'],
    })
    expect(emu.lastRequest('exa').body).toMatchObject({
      query: 'error handling in rust',
      includeDomains: ['docs.rs'],
      startPublishedDate: '2024-06-01T00:00:00.000Z',
      endPublishedDate: '2024-12-31T23:59:59.999Z',
      includeText: ['error handling'],
      excludeText: ['tokio'],
    })
  })

  it('leaves includeText out when there are two phrases or one longer than five words (enforced later)', async () => {
    await createExaProvider({ env: emu.env }).search({ query: 'a b c', phrases: ['a b', 'c'] })
    expect(emu.lastRequest('exa').body).not.toHaveProperty('includeText')
    await createExaProvider({ env: emu.env }).search({
      query: 'one two three four five six',
      phrases: ['one two three four five six'],
    })
    expect(emu.lastRequest('exa').body).not.toHaveProperty('includeText')
  })
})
