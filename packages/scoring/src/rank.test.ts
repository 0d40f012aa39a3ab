import { InputError } from '@search-layer/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  authorityParts,
  freshnessScore,
  keywordScore,
  type MergedResult,
  merge,
  rank,
  type ResultBatch,
  scoreResult,
} from './index.js'
import { round4 as clampRound4 } from './_math.js'

const now = new Date('2026-03-15T12:00:00.000Z')

function result(over: Partial<MergedResult> & { url: string }): MergedResult {
  return {
    title: '',
    canonicalUrl: over.url,
    snippet: '',
    publishedAt: null,
    sources: ['brave'],
    source: 'brave',
    ranks: { brave: 1 },
    providerScores: {},
    queries: ['q'],
    fusion: 0.5,
    ...over,
  }
}

const statusWeights = { keyword: 0.2, freshness: 0.5, authority: 0.3 }

describe('scoreResult', () => {
  it('combines keyword, freshness and authority with the intent weights', () => {
    const out = scoreResult(
      result({
        url: 'https://github.com/denoland/deno/releases',
        title: 'Deno releases',
        snippet: 'Latest Deno release',
        publishedAt: '2026-03-15T12:00:00.000Z',
        fusion: 0.75,
      }),
      { query: 'deno release', weights: statusWeights, now },
    )
    expect(out).toEqual({ score: 1, keyword: 1, freshness: 1, authority: 1, boost: 0, fusion: 0.75 })
  })

  it('normalises weights that do not sum to 1', () => {
    const r = result({ url: 'https://example.com/', title: 'rust' })
    const a = scoreResult(r, { query: 'rust', weights: { keyword: 1, freshness: 1, authority: 2 }, now })
    const b = scoreResult(r, { query: 'rust', weights: { keyword: 0.25, freshness: 0.25, authority: 0.5 }, now })
    expect(a.score).toBe(b.score)
    expect(a.score).toBe(round4(0.25 * 1 + 0.25 * 0.5 + 0.5 * 0.4))
  })

  it('adds the domain boost to authority, capped at 1', () => {
    const r = result({ url: 'https://dev.to/x', title: 'x' })
    const out = scoreResult(r, {
      query: 'y',
      weights: { keyword: 0, freshness: 0, authority: 1 },
      domainBoost: ['dev.to'],
    })
    expect(out).toMatchObject({ authority: 0.8, boost: 0.2, score: 1 })
  })

  it('survives null fields', () => {
    const r = { url: null, title: null, snippet: null, publishedAt: null } as unknown as MergedResult
    const out = scoreResult(r, { query: 'rust', weights: statusWeights, now })
    expect(out).toEqual({
      score: round4(0.5 * 0.5 + 0.3 * 0.4),
      keyword: 0,
      freshness: 0.5,
      authority: 0.4,
      boost: 0,
      fusion: 0,
    })
  })

  it.each([
    ['negative', { keyword: -1, freshness: 1, authority: 1 }],
    ['all zero', { keyword: 0, freshness: 0, authority: 0 }],
    ['NaN', { keyword: Number.NaN, freshness: 1, authority: 1 }],
  ])('rejects %s weights with InputError', (_name, weights) => {
    expect(() => scoreResult(result({ url: 'https://a.example/' }), { query: 'q', weights })).toThrow(InputError)
  })
})

function round4(n: number): number {
  return Math.round(n * 10_000) / 10_000
}

describe('rank', () => {
  const list = [
    result({ url: 'https://old.example/rust', title: 'Rust async', publishedAt: '2019-01-01', fusion: 0.9 }),
    result({ url: 'https://trust.example/', title: 'Trust and safety', publishedAt: '2026-03-14', fusion: 0.8 }),
    result({
      url: 'https://docs.rs/tokio',
      title: 'tokio - Rust async runtime',
      publishedAt: '2026-03-01',
      fusion: 0.3,
    }),
  ]

  it('keeps the fused order and adds no score without weights', () => {
    for (const weights of [undefined, null]) {
      const out = rank(list, { query: 'rust async', weights })
      expect(out.map((r) => r.url)).toEqual(list.map((r) => r.url))
      expect(out.every((r) => r.score === undefined && r.explain === undefined)).toBe(true)
    }
  })

  it('orders by score with weights, and explains each component', () => {
    const out = rank(list, { query: 'rust async', weights: statusWeights, now, explain: true })
    expect(out.map((r) => r.url)).toEqual([
      'https://docs.rs/tokio',
      'https://trust.example/',
      'https://old.example/rust',
    ])
    expect(out[0]!.explain).toEqual({ keyword: 1, freshness: 0.9457, authority: 1, boost: 0, fusion: 0.3 })
    // "trust" is not "rust": its keyword part is 0.
    expect(out[1]!.explain!.keyword).toBe(0)
    for (const r of out) {
      expect(r.score).toBeGreaterThanOrEqual(0)
      expect(r.score).toBeLessThanOrEqual(1)
    }
  })

  it('breaks score ties by fusion, then canonical URL', () => {
    const tied = [
      result({ url: 'https://b.example/', fusion: 0.2 }),
      result({ url: 'https://c.example/', fusion: 0.4 }),
      result({ url: 'https://a.example/', fusion: 0.2 }),
    ]
    const out = rank(tied, { query: 'zzz', weights: statusWeights, now })
    expect(out.map((r) => r.url)).toEqual(['https://c.example/', 'https://a.example/', 'https://b.example/'])
  })

  it('explains without reordering when asked for explain but given no weights', () => {
    const out = rank(list, { query: 'rust', explain: true, now })
    expect(out.map((r) => r.url)).toEqual(list.map((r) => r.url))
    expect(out[0]!.score).toBeUndefined()
    expect(out[0]!.explain).toMatchObject({ keyword: 1 })
  })

  it.each([
    ['a merge result', {}],
    ['a result with extra keys', { extra: 1 }],
    ['a result with a symbol key', { [Symbol.for('tag')]: 'kept' }],
    ['an already scored result', { score: 0.123 }],
  ])('copies %s with every own property, score (and explain) last unless already there', (_name, extra) => {
    const base = merge(
      [{ provider: 'brave', query: 'rust', results: [{ title: 'Rust', url: 'https://rust-lang.org/' }] }],
      { now },
    )[0]!
    const input = { ...base, ...extra }
    for (const explain of [false, true]) {
      const [out] = rank([input], { query: 'rust', weights: statusWeights, now, explain })
      expect(out).not.toBe(input)
      const added = ['score', ...(explain ? ['explain'] : [])].filter((k) => !(k in input))
      // Reflect.ownKeys lists string keys in insertion order, then symbols.
      const keys = [...Object.keys(input), ...added, ...Object.getOwnPropertySymbols(input)]
      expect(Reflect.ownKeys(out!)).toEqual(keys)
      expect(out).toMatchObject({ ...input, score: expect.any(Number) })
      expect(out!.score).not.toBe(0.123)
    }
  })

  it('does not modify its input', () => {
    const copy = structuredClone(list)
    rank(list, { query: 'rust', weights: statusWeights, now, explain: true })
    expect(list).toEqual(copy)
  })

  it('scores CJK queries', () => {
    const cjk = [
      result({ url: 'https://a.example/', title: 'Python 入门' }),
      result({ url: 'https://b.example/', title: 'Rust 异步编程教程' }),
    ]
    const out = rank(cjk, { query: 'Rust 异步 教程', weights: { keyword: 1, freshness: 0, authority: 0 }, now })
    expect(out.map((r) => [r.url, r.score])).toEqual([
      ['https://b.example/', 1],
      ['https://a.example/', 0],
    ])
  })
})

describe('merge + rank at scale', () => {
  it('merges and scores 10,000 results', () => {
    const providers = ['brave', 'exa', 'tavily', 'grok'] as const
    const queries = ['rust async runtime', 'tokio tutorial', 'async rust 2026']
    const hosts = ['github.com', 'docs.rs', 'medium.com', 'example.com', 'juejin.cn', 'blog.rust-lang.org']
    const batches: ResultBatch[] = []
    const pages = new Set<number>()
    for (const [p, provider] of providers.entries()) {
      for (const [q, query] of queries.entries()) {
        const results = Array.from({ length: 834 }, (_, i) => {
          const page = (i * 7 + p * 1000 + q * 331) % 4000
          pages.add(page)
          return {
            title: i % 50 === 0 ? null : `Page ${page}: ${i % 3 === 0 ? 'Rust async' : 'trust issues'}`,
            url: `${i % 2 ? 'http://www.' : 'https://'}${hosts[page % hosts.length]}/p/${page}${i % 5 ? '' : '?utm_source=x'}`,
            snippet: i % 7 === 0 ? null : `Snippet about tokio ${page}`,
            publishedAt: i % 4 === 0 ? null : new Date(Date.UTC(2020 + (page % 7), page % 12, 1)).toISOString(),
            provider,
            rank: i + 1,
          }
        })
        batches.push({ provider, query, results })
      }
    }
    expect(batches.reduce((n, b) => n + b.results.length, 0)).toBeGreaterThanOrEqual(10_000)

    const merged = merge(batches, { now, queries })
    // Each page appears in several lists and in http/www/utm variants: one merged result per page.
    expect(merged.length).toBe(pages.size)
    expect(new Set(merged.map((m) => m.canonicalUrl)).size).toBe(pages.size)
    expect(merged.filter((m) => m.sources.length > 1).length).toBeGreaterThan(100)
    expect(merged.every((m) => !m.canonicalUrl.includes('utm_'))).toBe(true)

    const ranked = rank(merged, {
      query: 'rust async',
      subQueries: queries,
      weights: statusWeights,
      now,
      explain: true,
    })
    expect(ranked.length).toBe(pages.size)
    for (let i = 1; i < ranked.length; i++) expect(ranked[i - 1]!.score!).toBeGreaterThanOrEqual(ranked[i]!.score!)
    expect(ranked.every((r) => r.explain !== undefined && r.score! >= 0 && r.score! <= 1)).toBe(true)
    expect(JSON.stringify(merge([...batches].reverse(), { now, queries }))).toBe(JSON.stringify(merged))
  })
})

describe('rank properties', () => {
  it('returns every input once, scores in [0,1] with 4 decimals, sorted', () => {
    const item = fc.record({
      url: fc.oneof(fc.webUrl(), fc.string()),
      title: fc.option(fc.string(), { nil: null }),
      snippet: fc.option(fc.string(), { nil: null }),
      publishedAt: fc.option(
        fc.oneof(
          fc.string(),
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        ),
        {
          nil: null,
        },
      ),
      fusion: fc.double({ min: 0, max: 1, noNaN: true }),
    })
    const weights = fc.record({
      keyword: fc.double({ min: 0, max: 1, noNaN: true }),
      freshness: fc.double({ min: 0, max: 1, noNaN: true }),
      authority: fc.double({ min: 0.01, max: 1, noNaN: true }),
    })
    fc.assert(
      fc.property(fc.array(item, { maxLength: 20 }), weights, fc.string(), (items, w, query) => {
        // Providers send null titles and snippets at runtime, whatever the types say.
        const input = items.map((i) => result(i as unknown as MergedResult))
        const out = rank(input, { query, weights: w, now })
        expect(out.length).toBe(input.length)
        for (let i = 0; i < out.length; i++) {
          const s = out[i]!.score!
          expect(s).toBeGreaterThanOrEqual(0)
          expect(s).toBeLessThanOrEqual(1)
          expect(round4(s)).toBe(s)
          if (i > 0) expect(out[i - 1]!.score!).toBeGreaterThanOrEqual(s)
        }
      }),
      { numRuns: 300 },
    )
  })
})

describe('rank against a plain reference', () => {
  // The components through the public one-result functions, the joined title and snippet, one comparator sort:
  // rank's shared term table, packed sort keys and reused objects must give byte-identical output.
  function referenceRank(
    list: MergedResult[],
    options: {
      query: string
      subQueries: string[]
      weights: { keyword: number; freshness: number; authority: number }
      domainBoost: string[]
      explain: boolean
    },
  ) {
    const sum = options.weights.keyword + options.weights.freshness + options.weights.authority
    const w = {
      keyword: options.weights.keyword / sum,
      freshness: options.weights.freshness / sum,
      authority: options.weights.authority / sum,
    }
    const scored = list.map((r) => {
      const text = `${typeof r.title === 'string' ? r.title : ''}\n${typeof r.snippet === 'string' ? r.snippet : ''}`
      const authority = authorityParts(typeof r.url === 'string' ? r.url : '', { domainBoost: options.domainBoost })
      const parts = {
        keyword: keywordScore({ title: r.title, snippet: r.snippet }, options.query, options.subQueries),
        freshness: freshnessScore(r.publishedAt, { now, text }),
        authority: clampRound4(authority.base),
        boost: authority.boost,
        fusion: clampRound4(typeof r.fusion === 'number' ? r.fusion : 0),
      }
      const score = clampRound4(
        w.keyword * parts.keyword +
          w.freshness * parts.freshness +
          w.authority * Math.min(1, parts.authority + parts.boost),
      )
      return { r, parts, score }
    })
    const order = scored.map((_, i) => i)
    order.sort((a, b) => {
      const x = scored[a]!
      const y = scored[b]!
      const fx = x.r.fusion ?? 0
      const fy = y.r.fusion ?? 0
      return (
        y.score - x.score ||
        fy - fx ||
        (x.r.canonicalUrl < y.r.canonicalUrl ? -1 : x.r.canonicalUrl > y.r.canonicalUrl ? 1 : 0)
      )
    })
    return order.map((i) => {
      const { r, parts, score } = scored[i]!
      return options.explain ? { ...r, score, explain: parts } : { ...r, score }
    })
  }

  const text = fc.oneof(
    fc.constantFrom<unknown>(
      null,
      '',
      'Rust async runtime',
      'Tokio tutorial 2024',
      'rust 异步 编程',
      'ＲＵＳＴ Tokio',
      'A guide (2019)',
      'trust',
      'ΟΔΟΣ',
    ),
    fc.string({ maxLength: 12 }),
  )
  const item = fc.record({
    url: fc.constantFrom<unknown>(
      'https://docs.rs/tokio',
      'https://github.com/tokio-rs/tokio',
      'https://dev.to/x',
      'https://www.dev.to/y',
      'not a url',
      null,
    ),
    canonicalUrl: fc.constantFrom(
      'https://a.example/1',
      'https://a.example/2',
      'https://b.example/',
      'https://a.example/1',
    ),
    title: text,
    snippet: text,
    publishedAt: fc.constantFrom<unknown>(
      null,
      '2026-03-01T00:00:00.000Z',
      '2025-01-01',
      '3 days ago',
      'junk',
      '2030-01-01T00:00:00.000Z',
    ),
    fusion: fc.oneof(
      fc.integer({ min: 0, max: 10_000 }).map((f) => f / 10_000),
      fc.constantFrom<unknown>(0.12345, Number.NaN, undefined, 1.5, -0.25, 0),
    ),
  })
  const merged = item.map((r) => result(r as unknown as Partial<MergedResult> & { url: string }))

  it('gives byte-identical output', () => {
    fc.assert(
      fc.property(
        fc.array(merged, { maxLength: 40 }),
        fc.constantFrom('rust async', 'tokio tutorial', 'rust 异步', ''),
        fc.constantFrom<string[]>([], ['tokio tutorial', 'rust async runtime']),
        fc.constantFrom<string[]>([], ['dev.to'], ['https://www.Docs.rs/', 'github.com']),
        fc.boolean(),
        fc.constantFrom(
          statusWeights,
          { keyword: 1, freshness: 0, authority: 0 },
          { keyword: 0.4, freshness: 0.2, authority: 0.4 },
        ),
        (list, query, subQueries, domainBoost, explain, weights) => {
          const got = rank(list, { query, subQueries, weights, now, domainBoost, explain })
          expect(JSON.stringify(got)).toBe(
            JSON.stringify(referenceRank(list, { query, subQueries, weights, domainBoost, explain })),
          )
        },
      ),
      { numRuns: 1_000 },
    )
  })
})
