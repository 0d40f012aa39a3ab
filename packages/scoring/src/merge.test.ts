import type { ProviderName } from '@search-layer/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { merge, type ResultBatch } from './index.js'

const now = new Date('2026-03-15T12:00:00.000Z')

// Shapes as the provider packages produce them for "deno 2 release" and its sub-queries.
const batches: ResultBatch[] = [
  {
    provider: 'brave',
    query: 'deno 2 release',
    results: [
      {
        title: 'Announcing Deno 2',
        url: 'https://deno.com/blog/v2.0',
        snippet: 'Deno 2 is here, with backwards compatibility with Node and npm.',
        publishedAt: '2024-10-09T00:00:00',
        provider: 'brave',
        rank: 1,
      },
      {
        title: 'Deno 2.0 Release Candidate',
        url: 'https://deno.com/blog/v2.0-release-candidate?utm_source=hn',
        snippet: 'The release candidate of Deno 2.',
        publishedAt: '2024-09-10T00:00:00',
        provider: 'brave',
        rank: 2,
      },
    ],
  },
  {
    provider: 'exa',
    query: 'deno 2 release',
    results: [
      {
        title: 'Announcing Deno 2...',
        url: 'http://www.deno.com/blog/v2.0/',
        snippet: 'Deno 2 is here.',
        publishedAt: '2024-10-09T15:01:12.345Z',
        provider: 'exa',
        rank: 1,
        providerScore: 0.41,
      },
      {
        title: null as unknown as string,
        url: 'https://github.com/denoland/deno/releases/tag/v2.0.0',
        snippet: null as unknown as string,
        publishedAt: null,
        provider: 'exa',
        rank: 2,
        providerScore: 0.33,
      },
    ],
  },
  {
    provider: 'tavily',
    query: 'deno 2.0 changelog',
    results: [
      {
        title: 'Release v2.0.0 · denoland/deno',
        url: 'https://github.com/denoland/deno/releases/tag/v2.0.0#assets',
        snippet: 'Deno 2.0.0 release notes: stable npm compatibility, JSR, workspaces and long-term support.',
        publishedAt: 'Wed, 09 Oct 2024 14:00:00 GMT',
        provider: 'tavily',
        rank: 1,
        providerScore: 0.92,
      },
      {
        title: 'Announcing Deno 2',
        url: 'https://m.deno.com/blog/v2.0?amp=1',
        snippet: '',
        publishedAt: '2 days ago',
        provider: 'tavily',
        rank: 3,
      },
    ],
  },
]

describe('merge', () => {
  const merged = merge(batches, { now, queries: ['deno 2 release', 'deno 2.0 changelog'] })

  it('groups every variant of a page under one canonical URL', () => {
    expect(merged.map((m) => m.canonicalUrl)).toEqual([
      'https://deno.com/blog/v2.0',
      'https://github.com/denoland/deno/releases/tag/v2.0.0',
      'https://deno.com/blog/v2.0-release-candidate',
    ])
  })

  it('keeps every source, each best rank, and the queries that found it', () => {
    const [deno] = merged
    expect(deno).toMatchObject({
      sources: ['brave', 'exa', 'tavily'],
      source: 'brave, exa, tavily',
      ranks: { brave: 1, exa: 1, tavily: 3 },
      providerScores: { exa: 0.41 },
      queries: ['deno 2 release', 'deno 2.0 changelog'],
    })
  })

  it('shows the best variant, the best title and the longest useful snippet', () => {
    const [deno, release] = merged
    expect(deno!.url).toBe('https://deno.com/blog/v2.0')
    expect(deno!.title).toBe('Announcing Deno 2')
    expect(deno!.snippet).toBe('Deno 2 is here, with backwards compatibility with Node and npm.')
    // A null title and snippet from one provider never win over real ones, and never crash.
    expect(release!.title).toBe('Release v2.0.0 · denoland/deno')
    expect(release!.snippet).toMatch(/^Deno 2\.0\.0 release notes/)
  })

  it('keeps the earliest reliable date, as ISO', () => {
    const [deno, release, rc] = merged
    // "2 days ago" (a crawl date) loses to the real publication date.
    expect(deno!.publishedAt).toBe('2024-10-09T00:00:00.000Z')
    expect(release!.publishedAt).toBe('2024-10-09T14:00:00.000Z')
    expect(rc!.publishedAt).toBe('2024-09-10T00:00:00.000Z')
  })

  it('ranks agreement higher: reciprocal rank fusion over (provider, query) lists', () => {
    const [deno, release, rc] = merged
    const lists = 3
    const rrf = (...ranks: number[]) => ranks.reduce((sum, r) => sum + 1 / (60 + r), 0) / (lists / 61)
    expect(deno!.fusion).toBeCloseTo(rrf(1, 1, 3), 4)
    expect(release!.fusion).toBeCloseTo(rrf(2, 1), 4)
    expect(rc!.fusion).toBeCloseTo(rrf(2), 4)
    expect(deno!.fusion).toBeGreaterThan(release!.fusion)
    expect(release!.fusion).toBeGreaterThan(rc!.fusion)
  })

  it('falls back to the address when no provider sent a title', () => {
    const [only] = merge([
      {
        provider: 'grok',
        query: 'q',
        results: [{ title: null, url: 'https://example.com/a/b', snippet: null, rank: 1 }],
      },
    ])
    expect(only).toMatchObject({ title: 'example.com/a/b', snippet: '', publishedAt: null, fusion: 1 })
  })

  it('skips results without a URL and survives malformed batches', () => {
    const out = merge([
      {
        provider: 'brave',
        query: 'q',
        results: [{ title: 'x', url: '' }, null as never, { url: 'https://a.example/' }],
      },
      null as never,
      { provider: 'exa', query: 'q', results: undefined as never },
    ])
    expect(out.map((m) => m.canonicalUrl)).toEqual(['https://a.example/'])
    // Without a usable rank, the position in the provider's list is the rank.
    expect(out[0]!.ranks).toEqual({ brave: 3 })
  })

  it('shows a variant without tracking parameters, then https, then not mobile or AMP', () => {
    const show = (...urls: string[]) =>
      merge(urls.map((url, i) => ({ provider: 'brave' as const, query: `q${i}`, results: [{ url, rank: 1 }] })))[0]!.url
    expect(show('https://tokio.rs/?utm_source=brave', 'http://www.tokio.rs/')).toBe('http://www.tokio.rs/')
    expect(show('http://example.com/a', 'https://example.com/a')).toBe('https://example.com/a')
    expect(show('https://m.example.com/a', 'https://example.com/a/amp', 'https://example.com/a')).toBe(
      'https://example.com/a',
    )
  })

  it('counts a page once per list even when the list repeats it', () => {
    const out = merge([
      {
        provider: 'brave',
        query: 'q',
        results: [
          { url: 'https://a.example/x', rank: 1 },
          { url: 'http://www.a.example/x/', rank: 2 },
          { url: 'https://b.example/', rank: 3 },
        ],
      },
    ])
    expect(out[0]).toMatchObject({ canonicalUrl: 'https://a.example/x', fusion: 1, ranks: { brave: 1 } })
  })

  it('returns an empty list for no input', () => {
    expect(merge([])).toEqual([])
  })
})

const providers: ProviderName[] = ['brave', 'exa', 'tavily', 'grok']
const batchArb = fc
  .array(
    fc.record({
      provider: fc.constantFrom(...providers),
      query: fc.constantFrom('rust async', 'tokio tutorial', 'rust async runtime'),
      results: fc.array(
        fc.record({
          title: fc.option(fc.constantFrom('Tokio', 'Async Rust', 'Async Rust...', ''), { nil: null }),
          url: fc.constantFrom(
            'https://tokio.rs/tokio/tutorial',
            'http://www.tokio.rs/tokio/tutorial/',
            'https://rust-lang.github.io/async-book/',
            'https://m.reddit.com/r/rust/comments/1?utm_source=x',
            'https://reddit.com/r/rust/comments/1',
            'not a url',
          ),
          snippet: fc.option(fc.constantFrom('Tokio is a runtime', 'An async book', 'x'), { nil: null }),
          publishedAt: fc.option(fc.constantFrom('2025-01-01', '2024-06-01T10:00:00.123Z', '3 days ago', 'junk'), {
            nil: null,
          }),
          rank: fc.integer({ min: 1, max: 10 }),
          providerScore: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
        }),
        { maxLength: 6 },
      ),
    }),
    { maxLength: 6 },
  )
  .map((list) => list.map((b) => ({ ...b, results: b.results.map((r) => ({ ...r, provider: b.provider })) })))

describe('merge properties', () => {
  it('gives byte-identical output for any arrival order of batches and results', () => {
    fc.assert(
      fc.property(batchArb, fc.infiniteStream(fc.nat()), (input, seeds) => {
        const shuffled = [...input]
          .map((b) => ({ ...b, results: [...b.results].reverse() }))
          .sort(() => (seeds.next().value % 3) - 1)
        expect(JSON.stringify(merge(shuffled, { now }))).toBe(JSON.stringify(merge(input, { now })))
      }),
      { numRuns: 300 },
    )
  })

  it('keeps one result per canonical URL, fusion in [0,1], sorted by fusion', () => {
    fc.assert(
      fc.property(batchArb, (input) => {
        const out = merge(input, { now })
        expect(new Set(out.map((m) => m.canonicalUrl)).size).toBe(out.length)
        for (let i = 0; i < out.length; i++) {
          expect(out[i]!.fusion).toBeGreaterThan(0)
          expect(out[i]!.fusion).toBeLessThanOrEqual(1)
          if (i > 0) expect(out[i - 1]!.fusion).toBeGreaterThanOrEqual(out[i]!.fusion)
          expect(out[i]!.source).toBe(out[i]!.sources.join(', '))
        }
      }),
      { numRuns: 300 },
    )
  })
})

describe('snippet choice', () => {
  it('does not let a snippet win "longest" by repeating the title', () => {
    const title = 'Bun 1.3 | Bun Blog'
    const merged = merge([
      {
        query: 'bun',
        provider: 'exa',
        results: [
          {
            title,
            url: 'https://bun.sh/blog/bun-v1.3',
            snippet: 'Bun 1.3 adds a built-in Redis client and a dev server.',
            publishedAt: null,
            provider: 'exa',
            rank: 1,
          },
        ],
      },
      {
        query: 'bun',
        provider: 'grok',
        results: [
          {
            title,
            url: 'https://bun.sh/blog/bun-v1.3#overview',
            snippet: `${title}: Bun 1.3 adds a Redis client.`,
            publishedAt: null,
            provider: 'grok',
            rank: 1,
          },
        ],
      },
    ])
    expect(merged).toHaveLength(1)
    expect(merged[0]!.snippet).toBe('Bun 1.3 adds a built-in Redis client and a dev server.')
  })

  it('keeps the text after the title when that is the only snippet', () => {
    const merged = merge([
      {
        query: 'x',
        provider: 'grok',
        results: [
          {
            title: 'Deno 2.5',
            url: 'https://deno.com/blog/v2.5',
            snippet: 'Deno 2.5 – permissions in config.',
            publishedAt: null,
            provider: 'grok',
            rank: 1,
          },
        ],
      },
    ])
    expect(merged[0]!.snippet).toBe('permissions in config.')
  })
})
