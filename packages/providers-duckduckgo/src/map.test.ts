import { ProviderRequestSchema } from '@search-layer/core'
import { describe, expect, it } from 'vitest'
import { buildDuckDuckGoQuery, duckDuckGoRegion, mapDuckDuckGoError, mapDuckDuckGoResults } from './map.js'

describe('duckDuckGoRegion (kl)', () => {
  it.each([
    [undefined, undefined, undefined],
    ['en', undefined, 'us-en'],
    ['en-GB', undefined, 'uk-en'],
    ['en', 'gb', 'uk-en'],
    ['en', 'ca', 'ca-en'],
    ['fr', 'ca', 'ca-fr'],
    ['de', 'ch', 'ch-de'],
    ['zh', undefined, 'cn-zh'],
    ['zh-CN', undefined, 'cn-zh'],
    ['zh-TW', undefined, 'tw-tzh'],
    ['zh-Hant', undefined, 'tw-tzh'],
    ['zh', 'hk', 'hk-tzh'],
    ['ja', undefined, 'jp-jp'],
    ['ja', 'jp', 'jp-jp'],
    ['pt-BR', undefined, 'br-pt'],
    [undefined, 'de', 'de-de'],
    ['en', 'de', 'de-de'],
    ['tlh', undefined, undefined],
    ['en', 'zz', 'us-en'],
  ])('language %s, country %s → %s', (language, country, kl) => {
    expect(duckDuckGoRegion({ language, country })).toBe(kl)
  })
})

describe('buildDuckDuckGoQuery', () => {
  const req = (input: Record<string, unknown>) => ProviderRequestSchema.parse({ query: 'rust', ...input })
  it.each([
    [{}, { q: 'rust' }],
    [{ freshness: 'pd' }, { q: 'rust', df: 'd' }],
    [
      { freshness: 'py', language: 'ja' },
      { q: 'rust', df: 'y', kl: 'jp-jp' },
    ],
    [{ freshness: { from: '2026-01-01', to: '2026-02-01' } }, { q: 'rust', df: '2026-01-01..2026-02-01' }],
    [
      { includeDomains: ['docs.rs', 'github.com'], excludeDomains: ['reddit.com'] },
      { q: 'rust (site:docs.rs OR site:github.com) -site:reddit.com' },
    ],
  ])('%j → %j', (input, expected) => {
    expect(buildDuckDuckGoQuery(req(input))).toEqual(expected)
  })
})

describe('mapDuckDuckGoResults', () => {
  it('ranks organic hits, enforces domain filters and num', () => {
    const page = {
      ads: 1,
      dropped: 2,
      hits: [
        { title: 'a', url: 'https://docs.rs/a', snippet: 's', date: null, displayUrl: 'docs.rs/a' },
        { title: 'b', url: 'https://reddit.com/b', snippet: 's', date: '2026-01-01T00:00:00.000Z', displayUrl: '' },
        { title: 'c', url: 'https://docs.rs/c', snippet: 's', date: null, displayUrl: '' },
      ],
    }
    const out = mapDuckDuckGoResults(
      page,
      ProviderRequestSchema.parse({ query: 'x', num: 5, excludeDomains: ['reddit.com'] }),
    )
    expect(out.dropped).toBe(2)
    expect(out.results.map((r) => [r.url, r.rank, r.provider])).toEqual([
      ['https://docs.rs/a', 1, 'duckduckgo'],
      ['https://docs.rs/c', 3, 'duckduckgo'],
    ])
    expect(mapDuckDuckGoResults(page, ProviderRequestSchema.parse({ query: 'x', num: 1 })).results).toHaveLength(1)
  })

  it('maps 403/429 blocks to rate_limited that is not retried', () => {
    for (const status of [403, 429])
      expect(mapDuckDuckGoError({ status, headers: {}, text: '', json: undefined })).toMatchObject({
        kind: 'rate_limited',
        retryable: false,
      })
    expect(mapDuckDuckGoError({ status: 500, headers: {}, text: '', json: undefined })).toBeUndefined()
  })
})
