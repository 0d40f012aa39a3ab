import { readFileSync } from 'node:fs'
import { type ParsedProviderRequest, ProviderError, ProviderRequestSchema } from '@search-layer/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  buildHackerNewsQuery,
  hackerNewsEndpoint,
  hackerNewsNumericFilters,
  mapHackerNewsError,
  mapHackerNewsResults,
} from './map.js'
import { HackerNewsSearchResponseSchema } from './schema.js'

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../test/fixtures/${name}`, import.meta.url), 'utf8'))
const req = (input: Record<string, unknown> = {}): ParsedProviderRequest =>
  ProviderRequestSchema.parse({ query: 'apple', ...input })
const NOW = new Date('2026-11-20T12:00:00Z')
const NOW_S = NOW.getTime() / 1000

describe('request building', () => {
  it.each([
    [undefined, undefined, 'search'],
    ['pd', undefined, 'search_by_date'],
    ['pw', undefined, 'search_by_date'],
    ['pm', undefined, 'search'],
    [{ from: '2025-01-01', to: '2025-01-31' }, undefined, 'search'],
    [undefined, 'date', 'search_by_date'],
    ['pd', 'relevance', 'search'],
  ] as const)('freshness %j, sort %s → /%s', (freshness, sort, endpoint) => {
    expect(hackerNewsEndpoint(req(freshness ? { freshness } : {}), sort)).toBe(endpoint)
  })

  it.each([
    ['pd', `created_at_i>${NOW_S - 86_400}`],
    ['pw', `created_at_i>${NOW_S - 7 * 86_400}`],
    ['py', `created_at_i>${NOW_S - 365 * 86_400}`],
    [{ from: '2025-01-01', to: '2025-01-31' }, 'created_at_i>=1735689600,created_at_i<1738368000'],
  ] as const)('freshness %j → numericFilters %s', (freshness, filter) => {
    expect(hackerNewsNumericFilters(freshness, NOW)).toBe(filter)
  })

  it('asks for stories only, at most 50 a page', () => {
    expect(buildHackerNewsQuery(req({ num: 80 }), NOW)).toEqual({ query: 'apple', tags: 'story', hitsPerPage: 50 })
    expect(buildHackerNewsQuery(req({ num: 3, freshness: 'pd' }), NOW, '(story,poll)')).toEqual({
      query: 'apple',
      tags: '(story,poll)',
      hitsPerPage: 3,
      numericFilters: `created_at_i>${NOW_S - 86_400}`,
    })
  })
})

describe('mapHackerNewsResults on recorded answers', () => {
  it('maps the recorded story: its own URL, date, points and comments', () => {
    const body = HackerNewsSearchResponseSchema.parse(fixture('fraction--search-story-query-apple-2014.json'))
    const { results, dropped } = mapHackerNewsResults(body, req({ num: 5 }))
    expect(dropped).toBe(0)
    expect(results).toEqual([
      {
        title: 'Steve Jobs Resigns as CEO of Apple',
        url: 'http://finance.yahoo.com/news/Steve-Jobs-Resigns-as-CEO-of-bw-19285464.html?x=0&.v=1',
        snippet: '1638 points and 308 comments on Hacker News',
        publishedAt: '2011-08-24T22:37:35.000Z',
        provider: 'hackernews',
        rank: 1,
        extra: {
          hnUrl: 'https://news.ycombinator.com/item?id=2922756',
          points: 1638,
          comments: 308,
          author: 'taylorbuley',
          type: 'story',
        },
      },
    ])
  })

  it('maps the recorded comment to its own item page under its story title, entities decoded', () => {
    const body = HackerNewsSearchResponseSchema.parse(fixture('fraction--search-comment-query-apple-2014.json'))
    const [comment] = mapHackerNewsResults(body, req()).results
    expect(comment).toMatchObject({
      title: 'Patent war goes nuclear: Microsoft, Apple-owned Rockstar sues Google',
      url: 'https://news.ycombinator.com/item?id=6651926',
      publishedAt: '2013-11-01T05:18:12.000Z',
      extra: {
        type: 'comment',
        author: 'pg',
        storyUrl:
          'http://arstechnica.com/tech-policy/2013/10/patent-war-goes-nuclear-microsoft-apple-owned-rockstar-sues-google/',
      },
    })
    expect(comment!.snippet).toMatch(
      /^It's a little early to say for sure, but I predict this will do more to hurt Apple's/,
    )
    expect(comment!.snippet).not.toMatch(/<p>|&#x27;|&amp;/)
    expect(comment!.snippet.length).toBeLessThanOrEqual(400)
  })

  it.each([[null], [''], ['   ']])('a story whose url is %j links to its Hacker News page', (url) => {
    const body = HackerNewsSearchResponseSchema.parse({
      hits: [
        {
          objectID: '121003',
          title: 'Ask HN: The Arc Effect',
          url,
          story_text: '<p>Tell me &quot;why&quot;</p>',
          created_at_i: 1203647620,
          points: 25,
          num_comments: 16,
        },
      ],
    })
    expect(mapHackerNewsResults(body, req()).results[0]).toMatchObject({
      url: 'https://news.ycombinator.com/item?id=121003',
      snippet: 'Tell me "why"',
      publishedAt: '2008-02-22T02:33:40.000Z',
      extra: { type: 'text' },
    })
  })

  it('drops and counts hits without an objectID; enforces domain filters', () => {
    const body = HackerNewsSearchResponseSchema.parse({
      hits: [
        { title: 'no id', url: 'https://a.example/' },
        { objectID: '1', title: 'a', url: 'https://github.com/x/y' },
        { objectID: '2', title: 'b', url: 'https://example.org/' },
      ],
    })
    expect(mapHackerNewsResults(body, req()).dropped).toBe(1)
    expect(mapHackerNewsResults(body, req({ includeDomains: ['github.com'] })).results.map((r) => r.url)).toEqual([
      'https://github.com/x/y',
    ])
  })

  it('survives arbitrary hits: only valid results come out', () => {
    const hit = fc.record(
      {
        objectID: fc.oneof(fc.string(), fc.integer()),
        title: fc.oneof(fc.string(), fc.constant(null)),
        url: fc.oneof(fc.webUrl(), fc.string(), fc.constant(null)),
        story_text: fc.oneof(fc.string(), fc.constant(null)),
        created_at: fc.oneof(
          fc.string(),
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        ),
        created_at_i: fc.oneof(fc.integer(), fc.double()),
        _tags: fc.array(fc.constantFrom('story', 'comment', 'ask_hn')),
      },
      { requiredKeys: [] },
    )
    fc.assert(
      fc.property(fc.array(fc.oneof(hit, fc.jsonValue())), (hits) => {
        try {
          for (const r of mapHackerNewsResults({ hits }, req({ num: 100 })).results) {
            expect(r.url).toMatch(/^https?:\/\//)
            if (r.publishedAt !== null) expect(new Date(r.publishedAt).toISOString()).toBe(r.publishedAt)
          }
        } catch (error) {
          expect(error).toBeInstanceOf(ProviderError)
        }
      }),
      { numRuns: 300 },
    )
  })
})

describe('mapHackerNewsError', () => {
  const res = (status: number, json: unknown, retryAfterMs?: number) => ({
    status,
    headers: {},
    text: JSON.stringify(json),
    json,
    retryAfterMs,
  })
  it.each([
    [429, { message: 'Too many requests', status: 429 }, 'rate_limited', true],
    [400, { message: 'Invalid syntax for numeric filters', status: 400 }, 'upstream', false],
    [403, { message: 'Forbidden', status: 403 }, 'upstream', false],
  ])('%i → %s', (status, body, kind, retryable) => {
    const err = mapHackerNewsError(res(status, body, 2000))
    expect(err).toMatchObject({ kind, retryable, provider: 'hackernews', status })
    expect(err?.message).toContain(body.message)
  })
  it('leaves 5xx to the status default', () => {
    expect(mapHackerNewsError(res(503, {}))).toBeUndefined()
  })
})
