import { readFileSync } from 'node:fs'
import { resolveProviderDefinition, validateProviderDefinition } from '@search-layer/core'
import { faultTimeLimit, providerFailure } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { createWikipediaProvider } from './client.js'
import { wikipediaDefinition } from './definition.js'

const emu = useEmulator()

const sent = () => emu.requests.filter((r) => r.service === 'wikipedia')

describe('createWikipediaProvider against the emulator', () => {
  it('searches the English wiki without a key, with a User-Agent, and builds article URLs', async () => {
    const wiki = createWikipediaProvider({ env: { WIKIPEDIA_API_URL: emu.urls.wikipedia } })
    expect(wiki.isConfigured({})).toBe(true)
    const res = await wiki.search({ query: 'rust async runtime', num: 4 })
    const [request] = sent()
    expect(sent()).toHaveLength(1)
    expect(request!.path).toBe('/wikipedia/en/w/api.php')
    expect(request!.query).toMatchObject({
      action: 'query',
      list: 'search',
      srsearch: 'rust async runtime',
      srlimit: '4',
    })
    expect(request!.headers['user-agent']).toMatch(/^search-layer\//)
    expect(res.results.length).toBeGreaterThan(0)
    for (const r of res.results) {
      expect(r.url.startsWith(`${emu.url}/wikipedia/en/wiki/`)).toBe(true)
      expect(decodeURIComponent(r.url.split('/wiki/')[1]!)).toBe(r.title.replace(/ /g, '_'))
      expect(r.snippet).not.toMatch(/searchmatch|<|&amp;/)
      expect(r.publishedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/)
    }
  })

  it('asks zh and en for a Chinese query and interleaves them', async () => {
    const res = await createWikipediaProvider({ env: emu.env }).search({ query: '异步 运行时 rust', num: 6 })
    expect(
      sent()
        .map((r) => r.path)
        .sort(),
    ).toEqual(['/wikipedia/en/w/api.php', '/wikipedia/zh/w/api.php'])
    expect(res.results.map((r) => r.extra?.language).slice(0, 2)).toEqual(['zh', 'en'])
    expect(res.results.map((r) => r.rank)).toEqual(res.results.map((_, i) => i + 1))
  })

  it('keeps the zh answer when the en wiki fails, and fails when both do', async () => {
    emu.fault('wikipedia', { status: 503, times: 1 })
    const res = await createWikipediaProvider({ env: emu.env, retries: 0 }).search({ query: '量子计算' })
    expect(res.results.length).toBeGreaterThan(0)
    emu.fault('wikipedia', { status: 503 })
    expect(
      await providerFailure(createWikipediaProvider({ env: emu.env, retries: 0 }).search({ query: '量子计算' })),
    ).toMatchObject({
      kind: 'upstream',
      status: 503,
    })
  })

  it('replays the recorded German answer through the real client path', async () => {
    emu.fault('wikipedia', {
      reply: {
        body: readFileSync(new URL('../test/fixtures/wiki-check--de-list-search-hallo-2019.json', import.meta.url)),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      },
    })
    const res = await createWikipediaProvider({ env: emu.env }).search({ query: 'Hallo', language: 'de', num: 6 })
    expect(sent().map((r) => r.path)).toEqual(['/wikipedia/de/w/api.php'])
    expect(res.results.map((r) => r.title)).toHaveLength(6)
    expect(res.results[0]).toMatchObject({
      title: 'Hallo',
      url: `${emu.url}/wikipedia/de/wiki/Hallo`,
      extra: { language: 'de' },
    })
  })

  it('queries one wiki when the base URL has no {lang}', async () => {
    const base = emu.urls.wikipedia.replace('{lang}', 'de')
    await createWikipediaProvider({ baseUrl: base }).search({ query: '量子计算' })
    expect(sent().map((r) => r.path)).toEqual(['/wikipedia/de/w/api.php'])
  })

  it.each([
    [
      'API maxlag (HTTP 200)',
      { status: 200, code: 'maxlag' },
      { kind: 'rate_limited', code: 'maxlag', retryAfterMs: 5000 },
    ],
    ['API readapidenied', { status: 200, code: 'readapidenied' }, { kind: 'auth' }],
    ['API badvalue', { status: 200, code: 'badvalue' }, { kind: 'upstream', retryable: false }],
    ['edge 429', { status: 429, retryAfterSec: 2 }, { kind: 'rate_limited', retryAfterMs: 2000 }],
    ['edge 403', { status: 403 }, { kind: 'upstream', retryable: false }],
    ['hang', { hang: true }, { kind: 'timeout' }],
    ['malformed JSON', { malformedJson: true }, { kind: 'bad_response' }],
  ] as const)('fault %s → %j', async (_label, fault, expected) => {
    emu.fault('wikipedia', fault)
    const wiki = createWikipediaProvider({ env: emu.env, retries: 0, timeoutMs: faultTimeLimit(fault) })
    expect(await providerFailure(wiki.search({ query: 'rust' }))).toMatchObject({ provider: 'wikipedia', ...expected })
  })

  it('has a keyless definition with the {lang} default', () => {
    expect(wikipediaDefinition).toMatchObject({
      id: 'wikipedia',
      keyless: true,
      defaultBaseUrl: 'https://{lang}.wikipedia.org',
      env: { apiKey: [], baseUrl: 'WIKIPEDIA_API_URL' },
    })
    expect(validateProviderDefinition(wikipediaDefinition, 'wikipedia')).toEqual(
      resolveProviderDefinition(wikipediaDefinition),
    )
    expect(wikipediaDefinition.create().name).toBe('wikipedia')
  })
})

describe('query operators', () => {
  it('searches the language wiki with phrases quoted and terms excluded in srsearch', async () => {
    await createWikipediaProvider({ env: emu.env }).search({
      query: 'Fehlerbehandlung in Rust',
      language: 'de',
      phrases: ['Fehlerbehandlung in Rust'],
      excludeTerms: ['Python'],
    })
    const request = sent().at(-1)!
    expect(request.path).toBe('/wikipedia/de/w/api.php')
    expect(request.query.srsearch).toBe('"Fehlerbehandlung in Rust" -Python')
  })
})
