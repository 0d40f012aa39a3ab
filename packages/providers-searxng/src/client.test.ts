import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resolveProviderDefinition, validateProviderDefinition } from '@search-layer/core'
import { faultTimeLimit, providerFailure } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { createSearxngProvider } from './client.js'
import { searxngDefinition } from './definition.js'

const emu = useEmulator()

// A home without config files, so only the variables given count.
const NO_FILES = { HOME: mkdtempSync(join(tmpdir(), 'searxng-home-')) }

describe('createSearxngProvider against the emulator', () => {
  it('is configured only with SEARXNG_URL and says so when missing', async () => {
    const searx = createSearxngProvider({ env: NO_FILES })
    expect(searx.isConfigured(NO_FILES)).toBe(false)
    const err = await providerFailure(searx.search({ query: 'x' }))
    expect(err).toMatchObject({ kind: 'config' })
    expect(err.message).toContain('SEARXNG_URL')
    expect(searx.isConfigured({ ...NO_FILES, SEARXNG_URL: emu.urls.searxng })).toBe(true)
    expect(emu.count('searxng')).toBe(0)
  })

  it('takes the instance from a config file entry given as the URL', async () => {
    const home = mkdtempSync(join(tmpdir(), 'searxng-config-'))
    const file = join(home, 'config.json')
    writeFileSync(file, JSON.stringify({ searxng: emu.urls.searxng }))
    const env = { HOME: home, SEARCH_LAYER_CONFIG: file }
    const searx = createSearxngProvider({ env })
    expect(searx.isConfigured(env)).toBe(true)
    expect((await searx.search({ query: 'sqlite' })).results.length).toBeGreaterThan(0)
    expect(emu.count('searxng')).toBe(1)
  })

  it('sends format=json, language, time_range and categories; keeps engines per result', async () => {
    const searx = createSearxngProvider({
      env: { ...NO_FILES, SEARXNG_URL: `${emu.urls.searxng}/` },
      categories: 'general,news',
    })
    const res = await searx.search({ query: 'rust async runtime', num: 4, language: 'en-US', freshness: 'py' })
    const sent = emu.lastRequest('searxng')
    expect(sent.path).toBe('/searxng/search')
    expect(sent.query).toEqual({
      q: 'rust async runtime',
      format: 'json',
      categories: 'general,news',
      language: 'en-US',
      time_range: 'year',
    })
    expect(res.results).toHaveLength(4)
    for (const r of res.results) {
      expect(r.provider).toBe('searxng')
      expect(r.extra?.engines).toEqual(expect.arrayContaining([expect.any(String)]))
      if (r.publishedAt !== null) expect(new Date(r.publishedAt).toISOString()).toBe(r.publishedAt)
    }
    expect(res.results.some((r) => r.publishedAt !== null)).toBe(true)
  })

  it('replays the recorded instance answer through the real client path', async () => {
    emu.fault('searxng', {
      reply: {
        body: readFileSync(
          new URL('../test/fixtures/shortlist--search-google-cse-severance-2026.json', import.meta.url),
        ),
        headers: { 'content-type': 'application/json' },
      },
    })
    const res = await createSearxngProvider({ baseUrl: emu.urls.searxng }).search({ query: 'severance', num: 10 })
    expect(res.results).toHaveLength(6)
  })

  it('turns the JSON-disabled 403 into a config error naming search.formats in settings.yml, without retrying', async () => {
    emu.fault('searxng', { status: 403 })
    const err = await providerFailure(createSearxngProvider({ baseUrl: emu.urls.searxng }).search({ query: 'x' }))
    expect(err).toMatchObject({ kind: 'config', retryable: false, status: 403 })
    expect(err.message).toMatch(/settings\.yml, under `search:`, list json in `formats:`/)
    expect(emu.count('searxng')).toBe(1)
  })

  it.each([
    ['limiter 429', { status: 429, retryAfterSec: 2 }, { kind: 'rate_limited', retryAfterMs: 2000 }],
    ['502', { status: 502 }, { kind: 'upstream' }],
    ['hang', { hang: true }, { kind: 'timeout' }],
    ['HTML page', { html: true }, { kind: 'bad_response' }],
  ] as const)('fault %s → %j', async (_label, fault, expected) => {
    emu.fault('searxng', fault)
    const searx = createSearxngProvider({ baseUrl: emu.urls.searxng, retries: 0, timeoutMs: faultTimeLimit(fault) })
    expect(await providerFailure(searx.search({ query: 'x' }))).toMatchObject({ provider: 'searxng', ...expected })
  })

  it('has a definition keyed on SEARXNG_URL with web and news', () => {
    expect(searxngDefinition).toMatchObject({
      id: 'searxng',
      routing: 'fallback',
      capabilities: ['web', 'news'],
      env: { apiKey: ['SEARXNG_URL'], baseUrl: 'SEARXNG_URL' },
    })
    expect(validateProviderDefinition(searxngDefinition, 'searxng')).toEqual(
      resolveProviderDefinition(searxngDefinition),
    )
    expect(searxngDefinition.create().name).toBe('searxng')
  })
})

describe('query operators', () => {
  it('sends phrases, terms, file types and domains as operators in q and the language as a parameter', async () => {
    const searx = createSearxngProvider({ env: { ...NO_FILES, SEARXNG_URL: emu.urls.searxng } })
    await searx.search({
      query: 'error handling in rust',
      includeDomains: ['docs.rs', 'github.com'],
      excludeDomains: ['reddit.com'],
      language: 'de',
      phrases: ['error handling'],
      excludeTerms: ['tokio'],
      fileTypes: ['pdf'],
    })
    expect(emu.lastRequest('searxng').query).toMatchObject({
      q: '"error handling" in rust -tokio filetype:pdf (site:docs.rs OR site:github.com) -site:reddit.com',
      language: 'de',
    })
  })
})
