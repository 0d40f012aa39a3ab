import { readFileSync } from 'node:fs'
import { type ParsedProviderRequest, ProviderError, ProviderRequestSchema } from '@search-layer/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bochaFreshness, buildBochaBody, mapBochaError, mapBochaResults } from './map.js'
import { BochaSearchResponseSchema } from './schema.js'

const raw = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../test/fixtures/${name}`, import.meta.url), 'utf8'))
const req = (input: Record<string, unknown> = {}): ParsedProviderRequest =>
  ProviderRequestSchema.parse({ query: '阿里巴巴2024年的esg报告', ...input })

describe('buildBochaBody', () => {
  it.each([
    [undefined, 'noLimit'],
    ['pd', 'oneDay'],
    ['pw', 'oneWeek'],
    ['pm', 'oneMonth'],
    ['py', 'oneYear'],
    [{ from: '2025-01-01', to: '2025-04-06' }, '2025-01-01..2025-04-06'],
  ] as const)('freshness %j → %s', (freshness, expected) => {
    expect(bochaFreshness(freshness)).toBe(expected)
  })

  it('asks for summaries, caps count at 50, puts domain filters in include/exclude', () => {
    expect(
      buildBochaBody(req({ num: 80, includeDomains: ['qq.com', 'm.163.com'], excludeDomains: ['baidu.com'] })),
    ).toEqual({
      query: '阿里巴巴2024年的esg报告',
      freshness: 'noLimit',
      summary: true,
      count: 50,
      include: 'qq.com|m.163.com',
      exclude: 'baidu.com',
    })
    expect(buildBochaBody(req({ num: 3 }), { summary: false })).toMatchObject({ summary: false, count: 3 })
  })
})

describe('mapBochaResults on the documented example', () => {
  it('keeps all seven pages with clean titles and site names', () => {
    const body = BochaSearchResponseSchema.parse(raw('bocha-docs-example--web-search-alibaba-esg-2024.json'))
    const { results, dropped } = mapBochaResults(body, req({ num: 10 }))
    expect(dropped).toBe(0)
    expect(results).toHaveLength(7)
    expect(results[0]).toEqual({
      // The ideographic space (U+3000) in the title is whitespace like any other: collapsed to one space.
      title: '阿里巴巴发布2024年ESG报告 持续推进减碳与数字化普惠',
      url: 'https://www.alibabagroup.com/document-1752073403914780672',
      snippet:
        '阿里巴巴集团发布《2024财年环境、社会和治理（ESG）报告》（下称“报告”），详细分享过去一年在ESG各方面取得的进展。报告显示，阿里巴巴扎实推进减碳举措，全集团自身运营净碳排放和价值链碳...',
      // The late-2024 example has no datePublished; the crawl date is not a publication date.
      publishedAt: null,
      provider: 'bocha',
      rank: 1,
      extra: {
        siteName: 'www.alibabagroup.com',
        siteIcon: 'https://th.bochaai.com/favicon?domain_url=https://www.alibabagroup.com/document-1752073403914780672',
        dateLastCrawled: '2024-07-22T00:00:00Z',
      },
    })
    for (const r of results) expect(`${r.title} ${r.snippet}`).not.toMatch(/<\/?\w|&(amp|quot|#\d+);/)
  })

  it('reads datePublished with its Beijing offset and falls back to the summary for an empty snippet', () => {
    const body = BochaSearchResponseSchema.parse({
      code: 200,
      data: {
        webPages: {
          value: [
            {
              name: 'x',
              url: 'https://a.example/x',
              snippet: '',
              summary: 'A long <b>summary</b> &amp; more.',
              datePublished: '2024-07-24T08:00:00+08:00',
            },
          ],
        },
      },
    })
    expect(mapBochaResults(body, req()).results[0]).toMatchObject({
      snippet: 'A long summary & more.',
      publishedAt: '2024-07-24T00:00:00.000Z',
      extra: { summary: 'A long summary & more.' },
    })
  })

  it('treats a 200 answer whose code is not 200 as that error', () => {
    const body = BochaSearchResponseSchema.parse({ code: '403', msg: 'You do not have enough money' })
    expect(() => mapBochaResults(body, req())).toThrow(expect.objectContaining({ kind: 'quota' }))
  })

  it('survives arbitrary pages', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), (value) => {
        try {
          for (const r of mapBochaResults({ code: 200, data: { webPages: { value } } }, req({ num: 100 })).results)
            expect(r.url).toMatch(/^https?:\/\//)
        } catch (error) {
          expect(error).toBeInstanceOf(ProviderError)
        }
      }),
      { numRuns: 200 },
    )
  })
})

describe('mapBochaError on the documented error bodies', () => {
  const res = (status: number, json: unknown) => ({ status, headers: {}, text: JSON.stringify(json), json })
  it('401 Invalid API KEY → auth, the key never shown', () => {
    const key = 'sk-realkeyrealkeyrealkey000000001'
    const err = mapBochaError(res(401, raw('bocha-docs-template--error-401-invalid-api-key.json')), [key])
    expect(err).toMatchObject({ kind: 'auth', code: '401', status: 401, retryable: false })
    expect(err.message).toContain('Invalid API KEY')
    expect(err.message).not.toContain(key)
  })
  it('403 insufficient balance → quota', () => {
    expect(mapBochaError(res(403, raw('bocha-docs-template--error-403-insufficient-balance.json')))).toMatchObject({
      kind: 'quota',
      retryable: false,
      message: expect.stringContaining('You do not have enough money'),
    })
  })
  it.each([
    [429, 'rate_limited', true],
    [400, 'bad_request', false],
    [500, 'upstream', true],
  ])('%i → %s', (status, kind, retryable) => {
    expect(mapBochaError(res(status, { code: String(status), message: 'm', log_id: 'x' }))).toMatchObject({
      kind,
      retryable,
    })
  })
})
