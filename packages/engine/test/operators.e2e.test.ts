import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { InputError, type ProviderRequest } from '@search-layer/core'
import { useEmulator } from '@search-layer/testkit/vitest'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { builtInProviders, createSearchLayer } from '../src/index.js'
import { pluginProvider } from '@search-layer/testkit'

const emu = useEmulator()
let home: string
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'sl-operators-'))
})
beforeEach(() => {
  received.length = 0
})

// An open after: range ends today (the engine's clock is real: provider deadlines are measured on it).
const today = () => new Date().toISOString().slice(0, 10)
const received: ProviderRequest[] = []
const hit = (url: string, title: string, publishedAt: string | null, rank: number) => ({
  title,
  url,
  snippet: 'Async runtimes compared',
  publishedAt,
  provider: 'loose',
  rank,
})
// A plug-in that ignores every filter and declares none: what enforcement exists for.
const loose = pluginProvider('loose', (request) => {
  received.push(request)
  return {
    results: [
      hit('https://github.com/smol-rs/smol', 'smol: a small async runtime', '2025-03-01T00:00:00Z', 1),
      hit('https://gitlab.com/x/runtime', 'An async runtime on GitLab', '2025-03-01T00:00:00Z', 2),
      hit('https://github.com/old/runtime', 'An old async runtime', '2020-01-01T00:00:00Z', 3),
      hit('https://github.com/undated/runtime', 'An undated async runtime', null, 4),
      hit('https://github.com/tokio-rs/tokio', 'Tokio async runtime', '2025-05-01T00:00:00Z', 5),
    ],
  }
})

const layer = () =>
  createSearchLayer({
    env: { ...emu.env, HOME: home },
    providers: [...builtInProviders, loose],
    cache: false,
    rateLimits: false,
    providerRetries: 0,
  })

describe('query operators through the engine', () => {
  it('sends native parameters, strips the text, enforces the filters and reports all of it', async () => {
    const res = await layer().search({
      query: 'async runtime "error handling" site:github.com after:2024-06 -tokio',
      sources: ['brave', 'exa', 'tavily', 'loose'],
      intent: 'exploratory',
      maxQueries: 1,
      explain: true,
    })
    expect(res.query).toBe('async runtime error handling')
    expect(res.freshness_filter).toEqual({ from: '2024-06-01', to: today() })

    // Each provider got the filters in its own form.
    expect(emu.lastRequest('brave').query).toMatchObject({
      q: 'async runtime "error handling" -tokio site:github.com',
      freshness: `2024-06-01to${today()}`,
    })
    expect(emu.lastRequest('exa').body).toMatchObject({
      query: 'async runtime error handling',
      includeDomains: ['github.com'],
      startPublishedDate: '2024-06-01T00:00:00.000Z',
      includeText: ['error handling'],
      excludeText: ['tokio'],
    })
    expect(emu.lastRequest('tavily').body).toMatchObject({
      query: 'async runtime error handling',
      include_domains: ['github.com'],
      start_date: '2024-06-01',
    })
    expect(received[0]!.query).toBe('async runtime error handling')

    // Enforced on the merged results, whatever each provider did.
    const urls = res.results.map((r) => r.url)
    expect(urls).toContain('https://github.com/smol-rs/smol')
    for (const gone of [
      'https://gitlab.com/x/runtime',
      'https://github.com/old/runtime',
      'https://github.com/tokio-rs/tokio',
    ])
      expect(urls).not.toContain(gone)
    for (const r of res.results) {
      expect(new URL(r.url).hostname.endsWith('github.com')).toBe(true)
      if (r.published_date) expect(r.published_date.slice(0, 10) >= '2024-06-01').toBe(true)
      else expect(r.date_unverified).toBe(true)
    }
    expect(res.results.find((r) => r.url === 'https://github.com/undated/runtime')?.date_unverified).toBe(true)

    expect(res.operators).toMatchObject({
      parsed: [
        { name: 'phrase', value: 'error handling', raw: '"error handling"' },
        { name: 'site', value: 'github.com', raw: 'site:github.com' },
        { name: 'after', value: '2024-06-01', raw: 'after:2024-06' },
        { name: '-term', value: 'tokio', raw: '-tokio' },
      ],
      filters: ['site', 'date', 'phrase', 'exclude-term'],
      native: {
        brave: ['site', 'date', 'phrase', 'exclude-term'],
        exa: ['site', 'date', 'phrase', 'exclude-term'],
        tavily: ['site', 'date'],
        loose: [],
      },
      stripped: { brave: [], tavily: ['phrase', 'exclude-term'], loose: ['site', 'date', 'phrase', 'exclude-term'] },
    })
    expect(res.operators!.dropped_by).toMatchObject({ site: expect.any(Number), date: expect.any(Number) })
    expect(res.operators!.dropped_by['exclude-term']).toBeGreaterThanOrEqual(1)
    expect(res.operators!.dropped).toBe(Object.values(res.operators!.dropped_by).reduce((a, b) => a + b, 0))
    expect(res.operators!.date_unverified).toBe(res.results.filter((r) => r.date_unverified).length)
  })

  it('reports nothing and filters nothing for a plain query', async () => {
    const res = await layer().search({ query: 'async runtime', sources: ['loose'], intent: 'exploratory' })
    expect(res.operators).toBeUndefined()
    expect(res.results).toHaveLength(5)
    expect(res.results.some((r) => r.date_unverified)).toBe(false)
  })

  it('enforces the request’s own includeDomains too', async () => {
    const res = await layer().search({ query: 'async runtime', sources: ['loose'], includeDomains: ['gitlab.com'] })
    expect(res.results.map((r) => r.url)).toEqual(['https://gitlab.com/x/runtime'])
    expect(res.operators).toMatchObject({ parsed: [], filters: ['site'], dropped: 4, dropped_by: { site: 4 } })
  })

  it('reads operators in each of `queries`, and says when they replace the request’s freshness', async () => {
    const res = await layer().search({
      queries: ['async runtime site:github.com', 'smol runtime before:2025'],
      sources: ['loose'],
      freshness: 'pw',
    })
    expect(res.queries).toEqual(['async runtime', 'smol runtime'])
    expect(received.map((r) => r.query).sort()).toEqual(['async runtime', 'smol runtime'])
    expect(received[0]).toMatchObject({
      includeDomains: ['github.com'],
      freshness: { from: '1970-01-01', to: '2024-12-31' },
    })
    expect(res.warnings).toContain('the query\'s date operators (1970-01-01 to 2024-12-31) replace freshness "pw"')
    expect(res.results.map((r) => r.url).sort()).toEqual([
      'https://github.com/old/runtime',
      'https://github.com/undated/runtime',
    ])
  })

  it.each([
    ['rust before:yesterdayish', /before:yesterdayish.*is not a date/],
    ['rust site:', /site: has no value/],
  ])('refuses %s with an InputError naming the operator, before any call', async (query, message) => {
    const error = await layer()
      .search({ query, sources: ['loose'] })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InputError)
    expect((error as Error).message).toMatch(message)
    expect(received).toHaveLength(0)
  })
})
