import { describe, expect, it } from 'vitest'
import { type FilterableResult, type ResultFilters, enforceFilters } from './enforce-filters.js'

const page = (url: string, fields: Partial<FilterableResult> = {}): FilterableResult => ({
  url,
  title: 'A page',
  snippet: 'About things',
  publishedAt: '2024-08-01T10:00:00.000Z',
  ...fields,
})

describe('enforceFilters', () => {
  it.each<[string, ResultFilters, FilterableResult, string | undefined]>([
    ['site: keeps the domain', { includeDomains: ['github.com'] }, page('https://github.com/a/b'), undefined],
    ['site: keeps a subdomain', { includeDomains: ['github.com'] }, page('https://docs.github.com/x'), undefined],
    ['site: drops another host', { includeDomains: ['github.com'] }, page('https://gitlab.com/a/b'), 'site'],
    ['site: drops a look-alike', { includeDomains: ['github.com'] }, page('https://notgithub.com/a'), 'site'],
    [
      '-site: drops the domain',
      { excludeDomains: ['pinterest.com'] },
      page('https://www.pinterest.com/p/1'),
      'exclude-site',
    ],
    ['after: drops older', { dateRange: { from: '2024-09-01' } }, page('https://a.com'), 'date'],
    ['after: keeps the first day', { dateRange: { from: '2024-08-01' } }, page('https://a.com'), undefined],
    ['before: drops newer', { dateRange: { to: '2024-07-31' } }, page('https://a.com'), 'date'],
    ['before: keeps the last day', { dateRange: { to: '2024-08-01' } }, page('https://a.com'), undefined],
    [
      '-term drops a whole word',
      { excludeTerms: ['car'] },
      page('https://a.com', { title: 'Jaguar car review' }),
      'exclude-term',
    ],
    [
      '-term ignores a part of a word',
      { excludeTerms: ['car'] },
      page('https://a.com', { title: 'Jaguar carnivore facts' }),
      undefined,
    ],
    [
      '-term phrase',
      { excludeTerms: ['land rover'] },
      page('https://a.com', { snippet: 'vs Land  Rover' }),
      'exclude-term',
    ],
    [
      '-term in Chinese text',
      { excludeTerms: ['视频'] },
      page('https://a.com', { title: 'Python 入门视频教程' }),
      'exclude-term',
    ],
    ['filetype: keeps .pdf', { fileTypes: ['pdf'] }, page('https://a.com/report.PDF?x=1'), undefined],
    ['filetype: drops html', { fileTypes: ['pdf'] }, page('https://a.com/report.html'), 'filetype'],
    [
      'lang:zh drops text without Han',
      { language: 'zh' },
      page('https://a.com', { title: 'Markdown editors' }),
      'lang',
    ],
    ['lang:zh keeps Chinese', { language: 'zh' }, page('https://a.com', { title: '开源 Markdown 编辑器' }), undefined],
    ['lang:ru keeps Cyrillic', { language: 'ru' }, page('https://a.com', { snippet: 'Руководство' }), undefined],
    ['lang:de is not checked', { language: 'de' }, page('https://a.com', { title: 'English only' }), undefined],
  ])('%s', (_, filters, result, reason) => {
    const out = enforceFilters([result], filters)
    if (reason) expect(out.dropped).toEqual([{ url: result.url, reason }])
    else expect(out.results).toHaveLength(1)
  })

  it('keeps an undated result under a date filter and marks it; marks nothing without one', () => {
    const undated = page('https://a.com/x', { publishedAt: null })
    expect(enforceFilters([undated], { dateRange: { from: '2024-01-01' } }).results).toEqual([
      { ...undated, dateUnverified: true },
    ])
    expect(enforceFilters([undated], { includeDomains: ['a.com'] }).results).toEqual([undated])
  })

  it('keeps the order, lists every drop, and says a Latin-script language was not checked', () => {
    const results = [
      page('https://github.com/1'),
      page('https://gitlab.com/2'),
      page('https://github.com/3', { publishedAt: '2020-01-01T00:00:00.000Z' }),
      page('https://github.com/4'),
    ]
    const out = enforceFilters(results, {
      includeDomains: ['github.com'],
      dateRange: { from: '2024-01-01' },
      language: 'fr',
    })
    expect(out.results.map((r) => r.url)).toEqual(['https://github.com/1', 'https://github.com/4'])
    expect(out.dropped).toEqual([
      { url: 'https://gitlab.com/2', reason: 'site' },
      { url: 'https://github.com/3', reason: 'date' },
    ])
    expect(out.unchecked).toEqual(['lang'])
  })
})
