import { readFileSync } from 'node:fs'
import { type ParsedProviderRequest, ProviderError, ProviderRequestSchema } from '@search-layer/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildSearxngQuery, mapSearxngError, mapSearxngResults, searxngTimeRange } from './map.js'
import { SearxngResponseSchema } from './schema.js'

const recorded = () =>
  SearxngResponseSchema.parse(
    JSON.parse(
      readFileSync(
        new URL('../test/fixtures/shortlist--search-google-cse-severance-2026.json', import.meta.url),
        'utf8',
      ),
    ),
  )
const req = (input: Record<string, unknown> = {}): ParsedProviderRequest =>
  ProviderRequestSchema.parse({ query: 'severance', ...input })
const NOW = new Date('2026-11-20T12:00:00Z')

describe('buildSearxngQuery', () => {
  it('asks for JSON in the general category by default', () => {
    expect(buildSearxngQuery(req(), { now: NOW })).toEqual({ q: 'severance', format: 'json', categories: 'general' })
  })

  it.each([
    [{ language: 'zh-CN' }, { language: 'zh-CN' }],
    [{ language: 'en', country: 'gb' }, { language: 'en-GB' }],
    [{ language: 'x-klingon-tlh' }, {}],
    [{ freshness: 'pw' }, { time_range: 'week' }],
    [{ freshness: { from: '2026-11-01', to: '2026-11-10' } }, { time_range: 'month' }],
    [{ freshness: { from: '2020-01-01', to: '2020-02-01' } }, {}],
  ])('%j → %j', (input, expected) => {
    const q = buildSearxngQuery(req(input), { now: NOW, categories: 'general,news', safesearch: 1 })
    expect(q).toEqual({ q: 'severance', format: 'json', categories: 'general,news', safesearch: 1, ...expected })
  })

  it('picks the smallest window reaching a range start', () => {
    expect(searxngTimeRange({ from: '2026-11-20', to: '2026-11-20' }, NOW)).toBe('day')
  })
})

describe('mapSearxngResults on the recorded answer', () => {
  it('keeps all six results with engines, scores and clean text', () => {
    const { results, dropped } = mapSearxngResults(recorded(), req({ num: 10 }))
    expect(dropped).toBe(0)
    expect(results).toHaveLength(6)
    expect(results[0]).toEqual({
      title: 'What other shows do you rate as highly as (or close to) Severance?',
      url: 'https://www.reddit.com/r/SeveranceAppleTVPlus/comments/1idlrtq/what_other_shows_do_you_rate_as_highly_as_or/',
      snippet:
        "30 Jan 2025 ... Succession, best acting and character development I've ever seen. Feels like a modern Shakespearean play. Produced by will ferrell.",
      publishedAt: null,
      provider: 'searxng',
      rank: 1,
      providerScore: 1,
      extra: { engines: ['google cse'], category: 'general' },
    })
    for (const r of results) {
      expect(r.extra?.engines).toEqual(['google cse'])
      expect(`${r.title} ${r.snippet}`).not.toMatch(/<\/?\w|&(amp|quot|#39);/)
    }
  })

  it('reads dates without a zone as UTC and drops dated results outside an explicit range', () => {
    const body = SearxngResponseSchema.parse({
      results: [
        { url: 'https://a.example/1', title: 'in', publishedDate: '2026-11-05T10:00:00' },
        { url: 'https://a.example/2', title: 'out', publishedDate: '2026-10-01T10:00:00' },
        { url: 'https://a.example/3', title: 'undated', publishedDate: null },
        { title: 'no url' },
      ],
    })
    const { results, dropped } = mapSearxngResults(body, req({ freshness: { from: '2026-11-01', to: '2026-11-10' } }))
    expect(results.map((r) => [r.title, r.publishedAt])).toEqual([
      ['in', '2026-11-05T10:00:00.000Z'],
      ['undated', null],
    ])
    expect(dropped).toBe(1)
  })

  it('survives arbitrary results', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), (results) => {
        try {
          for (const r of mapSearxngResults({ results }, req({ num: 100 })).results)
            expect(r.url).toMatch(/^https?:\/\//)
        } catch (error) {
          expect(error).toBeInstanceOf(ProviderError)
        }
      }),
      { numRuns: 200 },
    )
  })
})

describe('mapSearxngError', () => {
  it('names the settings.yml line for the JSON-disabled 403', () => {
    const err = mapSearxngError({ status: 403, headers: {}, text: '<h1>Forbidden</h1>', json: undefined })
    expect(err).toMatchObject({ kind: 'config', retryable: false, status: 403, code: 'json_disabled' })
    expect(err?.message).toContain('settings.yml')
    expect(err?.message).toContain('formats: [html, json]')
    expect(err?.message).toMatch(/search:/)
  })

  it('reads the limiter 429 as rate_limited', () => {
    expect(
      mapSearxngError({ status: 429, headers: {}, text: 'Too Many Requests', json: undefined, retryAfterMs: 3000 }),
    ).toMatchObject({
      kind: 'rate_limited',
      retryAfterMs: 3000,
    })
    expect(mapSearxngError({ status: 502, headers: {}, text: '', json: undefined })).toBeUndefined()
  })
})
