import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ProviderError } from '@search-layer/core'
import { type Fault, faultTimeLimit } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTavilyProvider } from './client.js'

const emu = useEmulator()
let env: Record<string, string>
// An empty HOME keeps any real config file on this machine out of the tests.
const home = mkdtempSync(join(tmpdir(), 'tavily-test-'))

beforeAll(async () => {
  env = { ...emu.env, HOME: home }
})
beforeEach(() => {
  emu.fault('tavily', null)
})

const lastBody = () => emu.requests.filter((r) => r.service === 'tavily').at(-1)?.body as Record<string, unknown>

describe('tavily request', () => {
  it('POSTs /search with a Bearer key and no key in the body', async () => {
    await createTavilyProvider({ env }).search({ query: 'node.js release schedule', num: 3 })
    const sent = emu.requests.at(-1)!
    expect(sent).toMatchObject({ service: 'tavily', method: 'POST', path: '/tavily/search' })
    expect(sent.headers.authorization).toBe(`Bearer ${emu.keys.tavily}`)
    expect(sent.headers['content-type']).toBe('application/json')
    expect(JSON.stringify(sent.body)).not.toContain(emu.keys.tavily)
    expect(sent.body).toEqual({
      query: 'node.js release schedule',
      search_depth: 'basic',
      topic: 'general',
      max_results: 3,
      include_answer: false,
      include_usage: true,
    })
  })

  it.each([
    ['pd', { time_range: 'day' }],
    ['pw', { time_range: 'week' }],
    ['pm', { time_range: 'month' }],
    ['py', { time_range: 'year' }],
    [
      { from: '2026-01-01', to: '2026-02-01' },
      { start_date: '2026-01-01', end_date: '2026-02-01' },
    ],
  ] as const)('freshness %j → %j', async (freshness, expected) => {
    await createTavilyProvider({ env }).search({ query: 'rust async runtime', freshness })
    expect(lastBody()).toMatchObject(expected)
  })

  it('news topic sends days', async () => {
    await createTavilyProvider({ env, topic: 'news' }).search({ query: 'rust release', freshness: 'pw' })
    expect(lastBody()).toMatchObject({ topic: 'news', days: 7 })
  })

  it('sends domain filters, country name, depth and include_answer', async () => {
    const res = await createTavilyProvider({ env, includeAnswer: true, searchDepth: 'advanced' }).search({
      query: 'react server components',
      includeDomains: ['react.dev', 'github.com'],
      excludeDomains: ['medium.com'],
      country: 'us',
    })
    expect(lastBody()).toMatchObject({
      include_domains: ['react.dev', 'github.com'],
      exclude_domains: ['medium.com'],
      country: 'united states',
      search_depth: 'advanced',
      include_answer: true,
    })
    for (const r of res.results)
      expect(['react.dev', 'github.com'].some((d) => new URL(r.url).hostname.endsWith(d))).toBe(true)
    expect(res.cost).toEqual({ credits: 2, basis: 'estimated' })
  })

  it('explicit options win over the environment', async () => {
    const provider = createTavilyProvider({ env: { HOME: home }, apiKey: emu.keys.tavily, baseUrl: emu.urls.tavily })
    expect(provider.isConfigured()).toBe(true)
    await provider.search({ query: 'vite config' })
    expect(emu.count('tavily')).toBe(1)
  })
})

describe('tavily response', () => {
  it('maps the emulator answer into normalised results', async () => {
    const res = await createTavilyProvider({ env, includeAnswer: true }).search({
      query: 'typescript satisfies operator',
      num: 5,
    })
    expect(res.results.length).toBeGreaterThan(0)
    expect(res.answer).toBeTruthy()
    res.results.forEach((r, i) => {
      expect(r).toMatchObject({ provider: 'tavily', rank: i + 1 })
      expect(r.url).toMatch(/^https?:\/\//)
      expect(r.title).not.toBe('')
      expect(typeof r.snippet).toBe('string')
    })
  })

  it('news results carry ISO publishedAt from the HTTP-date', async () => {
    const res = await createTavilyProvider({ env, topic: 'news' }).search({ query: 'kubernetes release' })
    expect(res.results.length).toBeGreaterThan(0)
    for (const r of res.results) expect(r.publishedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  })
})

describe('tavily configuration', () => {
  it('reads the key at call time and reports config errors naming the variable', async () => {
    const provider = createTavilyProvider()
    expect(provider.isConfigured({ HOME: home })).toBe(false)
    expect(provider.isConfigured(env)).toBe(true)
    await expect(provider.search({ query: 'x' }, { env: { HOME: home } })).rejects.toMatchObject({
      kind: 'config',
      message: expect.stringContaining('TAVILY_API_KEY'),
    })
    expect(emu.count('tavily')).toBe(0)
  })

  it('rejects an invalid request as a ProviderError', async () => {
    await expect(createTavilyProvider({ env }).search({ query: '' })).rejects.toBeInstanceOf(ProviderError)
  })
})

describe('tavily faults', () => {
  const provider = (fault: Fault | null = null) =>
    createTavilyProvider({ env, retries: 0, timeoutMs: faultTimeLimit(fault) })

  it.each([
    [{ status: 401 }, 'auth'],
    [{ status: 403 }, 'auth'],
    [{ status: 432 }, 'quota'],
    [{ status: 433 }, 'quota'],
    [{ status: 500 }, 'upstream'],
    [{ status: 502 }, 'upstream'],
    [{ status: 503 }, 'upstream'],
    [{ hang: true }, 'timeout'],
    [{ reset: true }, 'network'],
    [{ malformedJson: true }, 'bad_response'],
    [{ html: true }, 'bad_response'],
    [{ oversizedBytes: 6 * 1024 * 1024 }, 'bad_response'],
    [{ endlessBody: true }, 'bad_response'],
  ] as const)('%j → %s', async (fault, kind) => {
    emu.fault('tavily', fault)
    const error = await provider(fault)
      .search({ query: 'fault test' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProviderError)
    expect(error).toMatchObject({ kind, provider: 'tavily' })
    expect((error as Error).message).not.toContain(emu.keys.tavily)
  })

  it('429 with Retry-After → rate_limited with retryAfterMs', async () => {
    emu.fault('tavily', { status: 429, retryAfterSec: 7 })
    await expect(provider().search({ query: 'x' })).rejects.toMatchObject({
      kind: 'rate_limited',
      retryable: true,
      retryAfterMs: 7000,
    })
  })

  it('432 and 433 say which limit was hit', async () => {
    emu.fault('tavily', { status: 432 })
    await expect(provider().search({ query: 'x' })).rejects.toThrow(/plan or API-key usage limit/)
    emu.fault('tavily', { status: 433 })
    await expect(provider().search({ query: 'x' })).rejects.toThrow(/pay-as-you-go/)
  })

  it('a wrong key is auth and never echoed', async () => {
    const wrong = 'tvly-dev-WRONGKEY1234567890'
    const error = await createTavilyProvider({ env, apiKey: wrong, retries: 0 })
      .search({ query: 'x' })
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'auth', status: 401 })
    expect((error as Error).message).not.toContain(wrong)
  })

  it('retries once after a 503 and succeeds', async () => {
    emu.fault('tavily', { status: 503, times: 1 })
    const res = await createTavilyProvider({ env, retries: 1 }).search({ query: 'postgres vacuum' })
    expect(res.results.length).toBeGreaterThan(0)
    expect(emu.count('tavily')).toBe(2)
  })

  it('honours an aborted signal', async () => {
    emu.fault('tavily', { hang: true })
    const controller = new AbortController()
    const pending = createTavilyProvider({ env, retries: 0 }).search({ query: 'x', signal: controller.signal })
    setTimeout(() => controller.abort(), 50)
    await expect(pending).rejects.toMatchObject({ kind: 'timeout', retryable: false })
  })
})

describe('query operators', () => {
  it('sends domains and the date range natively; phrase words stay in the query text, nothing else is sent', async () => {
    await createTavilyProvider({ env }).search({
      query: 'error handling in rust',
      includeDomains: ['docs.rs'],
      excludeDomains: ['reddit.com'],
      freshness: { from: '2024-06-01', to: '2024-12-31' },
      phrases: ['error handling'],
      excludeTerms: ['tokio'],
    })
    expect(lastBody()).toMatchObject({
      query: 'error handling in rust',
      include_domains: ['docs.rs'],
      exclude_domains: ['reddit.com'],
      start_date: '2024-06-01',
      end_date: '2024-12-31',
    })
    expect(JSON.stringify(lastBody())).not.toContain('tokio')
  })
})
