import { readFileSync } from 'node:fs'
import { ProviderResponseSchema, resolveProviderDefinition, validateProviderDefinition } from '@search-layer/core'
import { faultTimeLimit, providerFailure } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { createHackerNewsProvider } from './client.js'
import { hackernewsDefinition } from './definition.js'

const emu = useEmulator()

const recorded = (name: string): string => readFileSync(new URL(`../test/fixtures/${name}`, import.meta.url), 'utf8')
const NOW = new Date('2026-11-20T12:00:00Z')

describe('createHackerNewsProvider against the emulator', () => {
  it('needs no key and sends GET /search with stories only', async () => {
    const hn = createHackerNewsProvider({ env: { HN_API_URL: emu.urls.hackernews } })
    expect(hn.isConfigured({})).toBe(true)
    const res = await hn.search({ query: 'rust async runtime', num: 6 }, { now: () => NOW })
    const sent = emu.lastRequest('hackernews')
    expect(sent.path).toBe('/hn/api/v1/search')
    expect(sent.query).toEqual({ query: 'rust async runtime', tags: 'story', hitsPerPage: '6' })
    expect(sent.headers.authorization).toBeUndefined()
    expect(res.results).toHaveLength(6)
    expect(ProviderResponseSchema.parse(res).dropped).toBe(0)
    for (const r of res.results) {
      expect(r.provider).toBe('hackernews')
      expect(`${r.title} ${r.snippet}`).not.toMatch(/<\/?(em|p)>|&#x27;|&amp;|&quot;/)
      expect(new Date(r.publishedAt!).toISOString()).toBe(r.publishedAt)
      expect(r.extra).toMatchObject({ points: expect.any(Number), comments: expect.any(Number) })
      expect(r.extra?.hnUrl).toMatch(/^https:\/\/news\.ycombinator\.com\/item\?id=\d+$/)
    }
    // Text posts (no url in the hit) link to their discussion page; link posts to the story.
    const text = res.results.filter((r) => r.extra?.type === 'text')
    expect(text.length).toBeGreaterThan(0)
    for (const r of text) expect(r.url).toBe(r.extra?.hnUrl)
    expect(res.results.some((r) => r.extra?.type === 'story' && !r.url.includes('ycombinator'))).toBe(true)
  })

  it('asks /search_by_date with a created_at_i filter for the past week, newest first', async () => {
    const hn = createHackerNewsProvider({ env: emu.env })
    const res = await hn.search({ query: 'rust', num: 5, freshness: 'pw' }, { now: () => NOW })
    const sent = emu.lastRequest('hackernews')
    expect(sent.path).toBe('/hn/api/v1/search_by_date')
    expect(sent.query.numericFilters).toBe(`created_at_i>${NOW.getTime() / 1000 - 7 * 86_400}`)
    const dates = res.results.map((r) => r.publishedAt!)
    expect(dates).toEqual([...dates].sort().reverse())
    for (const d of dates) expect(Date.parse(d)).toBeGreaterThan(NOW.getTime() - 7 * 86_400_000)
  })

  it('replays the recorded 2014 story answer through the real client path', async () => {
    emu.fault('hackernews', {
      reply: {
        body: recorded('fraction--search-story-query-apple-2014.json'),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      },
    })
    const res = await createHackerNewsProvider({ env: emu.env }).search({ query: 'apple', num: 1 })
    expect(res.results.map((r) => [r.title, r.url, r.publishedAt])).toEqual([
      [
        'Steve Jobs Resigns as CEO of Apple',
        'http://finance.yahoo.com/news/Steve-Jobs-Resigns-as-CEO-of-bw-19285464.html?x=0&.v=1',
        '2011-08-24T22:37:35.000Z',
      ],
    ])
  })

  it.each([
    ['429 + Retry-After', { status: 429, retryAfterSec: 3 }, { kind: 'rate_limited', retryAfterMs: 3000 }],
    ['400 bad filter', { status: 400 }, { kind: 'upstream', retryable: false, status: 400 }],
    ['503', { status: 503 }, { kind: 'upstream', retryable: true }],
    ['hang', { hang: true }, { kind: 'timeout' }],
    ['reset', { reset: true }, { kind: 'network' }],
    ['malformed JSON', { malformedJson: true }, { kind: 'bad_response' }],
    ['HTML page', { html: true }, { kind: 'bad_response' }],
    ['oversized', { oversizedBytes: 300_000 }, { kind: 'bad_response' }],
  ] as const)('fault %s → %j', async (_label, fault, expected) => {
    emu.fault('hackernews', fault)
    const hn = createHackerNewsProvider({
      env: emu.env,
      retries: 0,
      timeoutMs: faultTimeLimit(fault),
      maxBytes: 200_000,
    })
    expect(await providerFailure(hn.search({ query: 'x' }))).toMatchObject({ provider: 'hackernews', ...expected })
  })

  it('retries a 503 once and succeeds', async () => {
    emu.fault('hackernews', { status: 503, times: 1 })
    const res = await createHackerNewsProvider({ env: emu.env, retries: 1 }).search({ query: 'sqlite' })
    expect(res.results.length).toBeGreaterThan(0)
    expect(emu.count('hackernews')).toBe(2)
  })

  it('has a keyless definition whose create() gives the same provider', async () => {
    expect(hackernewsDefinition).toMatchObject({
      id: 'hackernews',
      keyless: true,
      routing: 'vertical',
      capabilities: ['news'],
    })
    expect(validateProviderDefinition(hackernewsDefinition, 'hackernews')).toEqual(
      resolveProviderDefinition(hackernewsDefinition),
    )
    const hn = hackernewsDefinition.create({ env: emu.env })
    expect(hn.name).toBe('hackernews')
    expect((await hn.search({ query: 'kubernetes' })).results.length).toBeGreaterThan(0)
  })
})
