import { readFileSync } from 'node:fs'
import { type ParsedProviderRequest, ProviderError, ProviderRequestSchema } from '@search-layer/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  buildWikipediaQuery,
  mapWikipediaHttpError,
  mapWikipediaResults,
  wikipediaApiError,
  wikipediaArticleUrl,
  wikipediaLanguages,
} from './map.js'
import { WikipediaSearchResponseSchema } from './schema.js'

const fixture = (name: string) =>
  WikipediaSearchResponseSchema.parse(
    JSON.parse(readFileSync(new URL(`../test/fixtures/${name}`, import.meta.url), 'utf8')),
  )
const req = (input: Record<string, unknown> = {}): ParsedProviderRequest =>
  ProviderRequestSchema.parse({ query: 'Hallo', ...input })
const DE = { base: 'https://de.wikipedia.org', lang: 'de' }

describe('wikipediaLanguages', () => {
  it.each([
    ['rust ownership', undefined, ['en']],
    ['量子计算', undefined, ['zh', 'en']],
    ['量子計算', 'zh-TW', ['zh', 'en']],
    ['東京タワー', undefined, ['ja']],
    ['서울', undefined, ['ko']],
    // Core's CJK rule: half-width katakana is Japanese, compatibility jamo Korean, astral Han Chinese; the prolonged
    // sound mark alone names no script, and hanja beside Hangul is Korean.
    ['ｶﾗｵｹ', undefined, ['ja']],
    ['ㅋㅋ', undefined, ['ko']],
    ['𠮷', undefined, ['zh', 'en']],
    ['ー', undefined, ['en']],
    ['大韓民國 헌법', undefined, ['ko']],
    ['Москва', undefined, ['ru']],
    ['Hallo', 'de-AT', ['de']],
    ['shalom', 'iw', ['he']],
    ['anything', 'x-klingon', ['en']],
  ])('%s (language %s) → %j', (query, language, expected) => {
    expect(wikipediaLanguages({ query, language })).toEqual(expected)
  })
})

describe('request building', () => {
  it('asks for articles only with snippet, last edit and word count, num capped at 50', () => {
    expect(buildWikipediaQuery(req({ num: 80 }))).toEqual({
      action: 'query',
      list: 'search',
      srsearch: 'Hallo',
      srlimit: 50,
      srnamespace: 0,
      srprop: 'snippet|timestamp|wordcount',
      srinfo: 'totalhits|suggestion',
      format: 'json',
      formatversion: 2,
      utf8: 1,
    })
  })

  it.each([
    ['Queens', 'https://en.wikipedia.org/wiki/Queens'],
    ['A (New York City Subway service)', 'https://en.wikipedia.org/wiki/A_(New_York_City_Subway_service)'],
    ['AC/DC', 'https://en.wikipedia.org/wiki/AC/DC'],
    ['C++', 'https://en.wikipedia.org/wiki/C%2B%2B'],
    ['Talk:Rust, the language?', 'https://en.wikipedia.org/wiki/Talk:Rust,_the_language%3F'],
    ['量子计算', 'https://en.wikipedia.org/wiki/%E9%87%8F%E5%AD%90%E8%AE%A1%E7%AE%97'],
  ])('article URL of %s', (title, url) => {
    expect(wikipediaArticleUrl('https://en.wikipedia.org', title)).toBe(url)
  })
})

describe('mapWikipediaResults on recorded answers', () => {
  it('maps all six recorded German hits: URLs from titles, searchmatch markup gone, dates read', () => {
    const { results, dropped } = mapWikipediaResults(
      fixture('wiki-check--de-list-search-hallo-2019.json'),
      DE,
      req({ num: 10 }),
    )
    expect(dropped).toBe(0)
    expect(results).toHaveLength(6)
    expect(results[0]).toEqual({
      title: 'Hallo',
      url: 'https://de.wikipedia.org/wiki/Hallo',
      snippet:
        'Hallo ist im Deutschen ein mündlicher oder schriftlicher, nicht förmlicher Gruß, insbesondere unter Bekannten oder Freunden. Als Interjektion wird der',
      publishedAt: '2019-08-19T19:41:23.000Z',
      provider: 'wikipedia',
      rank: 1,
      extra: { language: 'de', pageId: 383925, wordCount: 746 },
    })
    expect(results[2]!.url).toBe('https://de.wikipedia.org/wiki/Hallo_Welt')
    for (const r of results) {
      expect(`${r.title} ${r.snippet}`).not.toMatch(/<|>|searchmatch|&[a-z#0-9]+;/)
      expect(r.publishedAt).toMatch(/^201[89]-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/)
    }
  })

  it('reads a recorded empty answer as no results', () => {
    expect(mapWikipediaResults(fixture('pymediawiki--list-search-no-results-2017.json'), DE, req())).toEqual({
      results: [],
      dropped: 0,
    })
  })

  it('throws the recorded API error (HTTP 200 with error) as a non-retryable upstream error', () => {
    expect(() =>
      mapWikipediaResults(fixture('pymediawiki--error-geosearch-invalid-coord-2017.json'), DE, req()),
    ).toThrow(
      expect.objectContaining({
        kind: 'upstream',
        retryable: false,
        code: 'gs_invalid-coord',
        message: expect.stringContaining('Invalid coordinate provided'),
      }),
    )
  })

  it('is bad_response without query or error', () => {
    expect(() => mapWikipediaResults({}, DE, req())).toThrow(expect.objectContaining({ kind: 'bad_response' }))
  })

  it('survives arbitrary hits', () => {
    const hit = fc.record(
      { title: fc.oneof(fc.string(), fc.constant(null)), snippet: fc.string(), timestamp: fc.string() },
      { requiredKeys: [] },
    )
    fc.assert(
      fc.property(fc.array(fc.oneof(hit, fc.jsonValue())), (search) => {
        try {
          for (const r of mapWikipediaResults({ query: { search } }, DE, req({ num: 100 })).results)
            expect(r.url.startsWith('https://de.wikipedia.org/wiki/')).toBe(true)
        } catch (error) {
          expect(error).toBeInstanceOf(ProviderError)
        }
      }),
      { numRuns: 200 },
    )
  })
})

describe('errors', () => {
  it.each([
    ['maxlag', 'rate_limited', true],
    ['ratelimited', 'rate_limited', true],
    ['readapidenied', 'auth', false],
    ['badvalue', 'upstream', false],
    ['internal_api_error_DBQueryError', 'upstream', true],
  ])('API error %s → %s', (code, kind, retryable) => {
    expect(wikipediaApiError({ code, info: 'x' }, { 'retry-after': '5' })).toMatchObject({ kind, retryable, code })
  })

  it('maxlag reads Retry-After as an HTTP date too, and ignores one that is not a believable wait', () => {
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString()
    const retryAfterMs = wikipediaApiError({ code: 'maxlag' }, { 'retry-after': inTenSeconds }).retryAfterMs
    expect(retryAfterMs).toBeGreaterThan(8_000)
    expect(retryAfterMs).toBeLessThanOrEqual(10_000)
    for (const value of ['9'.repeat(400), '315360000', '-5'])
      expect(wikipediaApiError({ code: 'maxlag' }, { 'retry-after': value }).retryAfterMs).toBeUndefined()
  })

  it('maxlag carries Retry-After', () => {
    expect(wikipediaApiError({ code: 'maxlag' }, { 'retry-after': '5' }).retryAfterMs).toBe(5000)
  })

  it.each([
    [429, 'rate_limited'],
    [403, 'upstream'],
  ])('HTTP %i → %s', (status, kind) => {
    const err = mapWikipediaHttpError({ status, headers: {}, text: '', json: undefined })
    expect(err?.kind).toBe(kind)
  })
})
