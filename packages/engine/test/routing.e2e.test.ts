import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError, type Intent } from '@search-layer/core'
import { zeroKeyEnv } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { beforeAll, describe, expect, it } from 'vitest'
import { type SearchLayerOptions, type SearchRequest, builtInProviders, createSearchLayer } from '../src/index.js'

const emu = useEmulator()
let home: string
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'sl-routing-'))
})

// What a new user has: no keys at all. The emulator's base URLs stand in for the real services (each definition
// declares its override variable); SEARXNG_URL is left out, since setting it is what configures SearXNG.
const zeroKeys = () => zeroKeyEnv(emu.env)

// Which sources a search asks is checked here, not how it settles: every call is waited for, so a loaded host cannot
// turn a vertical's answer `late`.
const layer = (env: Record<string, string>, overrides: SearchLayerOptions = {}) => {
  const searchLayer = createSearchLayer({
    env: { ...env, HOME: home },
    cache: false,
    rateLimits: false,
    providerRetries: 0,
    ...overrides,
  })
  return { search: (request: SearchRequest) => searchLayer.search({ wait: 'all', ...request }) }
}

const ENGINES = ['brave', 'exa', 'tavily', 'grok'] as const
const engineCalls = () => emu.requests.filter((r) => (ENGINES as readonly string[]).includes(r.service)).length

describe('no search engine key: the keyless sources search', () => {
  it('searches DuckDuckGo plus the vertical the intent asks for, and says only keyless sources were used', async () => {
    const res = await layer(zeroKeys()).search({ query: 'rust async tutorial', maxQueries: 1 })
    expect(res.intent).toBe('tutorial')
    expect(res.providers.duckduckgo).toMatchObject({ status: 'ok', calls: 1 })
    expect(res.providers.stackexchange).toMatchObject({ status: 'ok', calls: 1 })
    expect(res.providers.searxng).toMatchObject({ status: 'skipped', reason: 'not configured: set SEARXNG_URL' })
    expect(res.providers.brave).toMatchObject({ status: 'skipped', reason: 'not used: no key (set BRAVE_API_KEY)' })
    expect(res.results.length).toBeGreaterThan(0)
    expect(res.results.some((r) => r.sources.includes('duckduckgo'))).toBe(true)
    expect(engineCalls()).toBe(0)
    expect(res.keyless_only).toEqual({
      sources: ['duckduckgo', 'stackexchange'],
      set: ['BRAVE_API_KEY', 'EXA_API_KEY', 'TAVILY_API_KEY', 'XAI_API_KEY'],
      message:
        'only keyless sources were used (duckduckgo, stackexchange); set BRAVE_API_KEY, EXA_API_KEY, TAVILY_API_KEY or XAI_API_KEY for more',
    })
  })

  it('asks paced keyless and vertical sources only the queries their pace starts at once, the original first', async () => {
    const paced = createSearchLayer({ env: { ...zeroKeys(), HOME: home }, cache: false, providerRetries: 0 })
    const res = await paced.search({ query: 'kubernetes vs nomad' })
    expect(res.queries).toHaveLength(3)
    // DuckDuckGo's pace (1/s, burst 1) starts one call at once.
    expect(res.providers.duckduckgo).toMatchObject({ status: 'ok', calls: 1 })
    const asked = emu.requests
      .filter((r) => r.service === 'duckduckgo')
      .map((r) => r.query.q ?? new URLSearchParams(String(r.body)).get('q'))
    expect(asked).toEqual([res.queries[0]])
  })

  it('searches the SearXNG instance instead of DuckDuckGo when SEARXNG_URL is set', async () => {
    const res = await layer({ ...zeroKeys(), SEARXNG_URL: emu.urls.searxng }).search({
      query: 'kubernetes operator',
      mode: 'deep',
      intent: 'none',
    })
    expect(res.providers.searxng).toMatchObject({ status: 'ok', calls: 1 })
    expect(res.providers.duckduckgo!.status).toBe('skipped')
    expect(emu.count('duckduckgo')).toBe(0)
    expect(res.keyless_only?.sources).toEqual(['searxng'])
  })

  it('DuckDuckGo stands in when the SearXNG instance fails', async () => {
    emu.fault('searxng', { status: 503 })
    const res = await layer({ ...zeroKeys(), SEARXNG_URL: emu.urls.searxng }).search({
      query: 'kubernetes operator',
      mode: 'deep',
      intent: 'none',
    })
    expect(res.providers.searxng!.status).toBe('error')
    expect(res.providers.brave!.reason).toBe('not used: no key (set BRAVE_API_KEY)')
    expect(res.providers.duckduckgo).toMatchObject({ status: 'ok', fallback_for: 'searxng' })
    expect(res.keyless_only?.sources).toEqual(['duckduckgo'])
  })

  it.each([
    ['SEARCH_LAYER_KEYLESS=off', { SEARCH_LAYER_KEYLESS: 'off' }],
    ['"keyless": false in the config file', { SEARCH_LAYER_CONFIG: 'keyless-off' }],
  ])('%s turns them off: the configuration error names the engine keys', async (_label, setting) => {
    const file = join(home, 'keyless-off.json')
    writeFileSync(file, JSON.stringify({ keyless: false }), { mode: 0o600 })
    const env = { ...zeroKeys(), ...setting, ...('SEARCH_LAYER_CONFIG' in setting && { SEARCH_LAYER_CONFIG: file }) }
    const error = await layer(env)
      .search({ query: 'rust async tutorial' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toContain(
      'no search provider is configured: set at least one of BRAVE_API_KEY, EXA_API_KEY, TAVILY_API_KEY, XAI_API_KEY',
    )
    expect((error as Error).message).toContain('keyless sources are off')
    expect(emu.requests).toHaveLength(0)
  })

  it('with keyless sources off, a keyed search leaves the verticals out', async () => {
    const res = await layer({ ...emu.env, SEARCH_LAYER_KEYLESS: 'off' }).search({
      query: 'rust async tutorial',
      maxQueries: 1,
    })
    expect(res.providers.stackexchange).toMatchObject({ status: 'skipped', reason: /keyless sources are off/ })
    expect(emu.count('stackexchange')).toBe(0)
    expect(res.keyless_only).toBeUndefined()
  })
})

describe('verticals join keyed searches by intent', () => {
  const VERTICALS = ['wikipedia', 'hackernews', 'github', 'stackexchange', 'bocha']
  it.each([
    ['resource', 'github'],
    ['tutorial', 'stackexchange'],
    ['factual', 'wikipedia'],
    ['exploratory', 'wikipedia'],
    ['news', 'hackernews'],
    ['status', 'hackernews'],
  ] as const)('%s → %s, beside the mode engines, in the same fan-out', async (intent: Intent, vertical) => {
    const res = await layer(emu.env).search({ query: 'tokio runtime', intent, maxQueries: 1 })
    expect(res.providers[vertical]).toMatchObject({ status: 'ok', calls: 1 })
    expect(res.providers[vertical]!.fallback_for).toBeUndefined()
    for (const other of VERTICALS.filter((v) => v !== vertical))
      expect(res.providers[other], other).toMatchObject({
        status: 'skipped',
        reason: `not used for ${intent} searches`,
      })
    expect(engineCalls()).toBeGreaterThan(0)
    // SEARXNG_URL is set in this environment: still, the fallback engines are for searches without engine keys.
    expect(emu.count('searxng') + emu.count('duckduckgo')).toBe(0)
    expect(res.keyless_only).toBeUndefined()
  })

  it('a comparison asks no vertical', async () => {
    const res = await layer(emu.env).search({ query: 'Bun vs Deno', maxQueries: 1 })
    for (const vertical of VERTICALS) expect(res.providers[vertical]!.status).toBe('skipped')
  })

  it('a Chinese query asks Bocha and Wikipedia in zh and en', async () => {
    const res = await layer(emu.env).search({ query: 'Rust 异步编程 教程', maxQueries: 1 })
    expect(res.providers.bocha).toMatchObject({ status: 'ok', calls: 1 })
    expect(res.providers.wikipedia).toMatchObject({ status: 'ok' })
    const wikis = emu.requests.filter((r) => r.service === 'wikipedia').map((r) => r.path)
    expect(wikis.some((path) => path.includes('/zh/'))).toBe(true)
    expect(wikis.some((path) => path.includes('/en/'))).toBe(true)
  })

  it('Bocha is keyed: without BOCHA_API_KEY a Chinese query reports it not configured', async () => {
    const { BOCHA_API_KEY: _drop, ...env } = emu.env
    const res = await layer(env).search({ query: 'Rust 异步编程 教程', maxQueries: 1 })
    expect(res.providers.bocha).toMatchObject({ status: 'skipped', reason: 'not configured: set BOCHA_API_KEY' })
    expect(emu.count('bocha')).toBe(0)
  })

  it('a vertical listing qa never stands in for Exa in fast mode', async () => {
    emu.fault('exa', { status: 500 })
    const res = await layer(emu.env).search({ query: 'tokio runtime', mode: 'fast', intent: 'tutorial', maxQueries: 1 })
    expect(res.providers.exa!.status).toBe('error')
    // An engine of the slot takes over (Tavily: Grok is usually far slower), never the vertical.
    expect(res.providers.tavily).toMatchObject({ status: 'ok', fallback_for: 'exa' })
    expect(res.providers.stackexchange).toMatchObject({ status: 'ok' })
    expect(res.providers.stackexchange!.fallback_for).toBeUndefined()
    expect(res.providers.wikipedia!.status).toBe('skipped')
  })

  it('an explicit mode without an intent (v1 behaviour) asks no vertical', async () => {
    const res = await layer(emu.env).search({ query: 'rust async tutorial', mode: 'deep' })
    for (const vertical of VERTICALS) expect(res.providers[vertical]!.status).toBe('skipped')
  })

  it('every registered id is accepted in sources', async () => {
    const res = await layer(emu.env).search({ query: 'tokio', sources: ['hackernews', 'duckduckgo'], intent: 'none' })
    expect(res.providers.hackernews!.status).toBe('ok')
    expect(res.providers.duckduckgo!.status).toBe('ok')
    expect(builtInProviders.map((d) => d.id)).toHaveLength(11)
  })
})
