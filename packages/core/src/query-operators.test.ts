import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InputError } from './errors.js'
import {
  type QueryFilters,
  parseQueryOperators,
  queryWithOperators,
  queryWithSiteOperators,
} from './query-operators.js'

const none: QueryFilters = { includeDomains: [], excludeDomains: [], phrases: [], excludeTerms: [], fileTypes: [] }

describe('parseQueryOperators', () => {
  it.each<[string, string, Partial<QueryFilters>]>([
    ['rust async runtime', 'rust async runtime', {}],
    ['tokio site:github.com', 'tokio', { includeDomains: ['github.com'] }],
    ['tokio site:https://www.GitHub.com/', 'tokio', { includeDomains: ['github.com'] }],
    ['tokio site:docs.rs site:github.com', 'tokio', { includeDomains: ['docs.rs', 'github.com'] }],
    ['recipes -site:pinterest.com', 'recipes', { excludeDomains: ['pinterest.com'] }],
    ['node release after:2024-06', 'node release', { dateRange: { from: '2024-06-01' } }],
    ['node release before:2025-01-01', 'node release', { dateRange: { to: '2024-12-31' } }],
    ['node before:2025-03', 'node', { dateRange: { to: '2025-02-28' } }],
    ['node after:2024 before:2025', 'node', { dateRange: { from: '2024-01-01', to: '2024-12-31' } }],
    // Two starts: the later wins; two ends: the earlier.
    [
      'node after:2023 after:2024/02/29 before:2026 before:2025.6',
      'node',
      { dateRange: { from: '2024-02-29', to: '2025-05-31' } },
    ],
    ['Autobahn Maut lang:de', 'Autobahn Maut', { language: 'de' }],
    ['markdown 编辑器 lang:zh-Hans', 'markdown 编辑器', { language: 'zh' }],
    ['"error handling" in rust', 'error handling in rust', { phrases: ['error handling'] }],
    ['“异步 编程” 教程', '异步 编程 教程', { phrases: ['异步 编程'] }],
    ['「非同期処理」 入門', '非同期処理 入門', { phrases: ['非同期処理'] }],
    // Operators inside quotes are text, not filters.
    ['"site:example.com is down" today', 'site:example.com is down today', { phrases: ['site:example.com is down'] }],
    ['"before:2025 -foo"', 'before:2025 -foo', { phrases: ['before:2025 -foo'] }],
    ['jaguar speed -car -"land rover"', 'jaguar speed', { excludeTerms: ['car', 'land rover'] }],
    ['python 教程 -视频', 'python 教程', { excludeTerms: ['视频'] }],
    ['annual report filetype:PDF', 'annual report', { fileTypes: ['pdf'] }],
    ['annual report ext:.docx', 'annual report', { fileTypes: ['docx'] }],
    // Glued to Chinese text, as people type without spaces.
    ['开源的 markdown 编辑器site:github.com', '开源的 markdown 编辑器', { includeDomains: ['github.com'] }],
    ['例子 site:例子.中国', '例子', { includeDomains: ['xn--fsqu00a.xn--fiqs8s'] }],
    // Not operators: a minus before a digit or another minus, an unclosed quote, a URL scheme, C++.
    ['x -1 and --verbose', 'x -1 and --verbose', {}],
    ['say "hello world', 'say "hello world', {}],
    ['https://example.com C++', 'https://example.com C++', {}],
    ['a  ""  b', 'a b', {}],
  ])('%s', (query, text, filters) => {
    const parsed = parseQueryOperators(query)
    expect(parsed.text).toBe(text)
    expect(parsed.filters).toEqual({ ...none, ...filters })
  })

  it('lists each operator with its name, value and text as typed', () => {
    expect(parseQueryOperators('rust site:docs.rs -site:reddit.com after:2025 "async fn" -tokio').operators).toEqual([
      { name: 'site', value: 'docs.rs', raw: 'site:docs.rs' },
      { name: '-site', value: 'reddit.com', raw: '-site:reddit.com' },
      { name: 'after', value: '2025-01-01', raw: 'after:2025' },
      { name: 'phrase', value: 'async fn', raw: '"async fn"' },
      { name: '-term', value: 'tokio', raw: '-tokio' },
    ])
  })

  it.each([
    [
      'rust before:yesterdayish',
      /before:yesterdayish: "yesterdayish" is not a date; write before:YYYY, YYYY-MM or YYYY-MM-DD/,
    ],
    ['rust after:2025-02-30', /after:2025-02-30: "2025-02-30" is not a date/],
    ['rust after:2025-13', /is not a date/],
    ['rust site:', /site: has no value: write a domain, e\.g\. site:example\.com/],
    ['rust site:localhost', /site:localhost: "localhost" is not a domain/],
    ['rust site:github.com/nodejs', /"github\.com\/nodejs" is not a domain; .*no path/],
    ['rust lang:deutsch', /lang:deutsch: "deutsch" is not a language code; write a language code, e\.g\. lang:de/],
    ['rust lang:de lang:fr', /one lang: per query, got lang:de and lang:fr/],
    ['rust filetype:', /filetype: has no value: write a file extension/],
    ['rust -before:2025', /-before: cannot be negated/],
    ['rust after:2025 before:2024-06', /after:2025 is not earlier than before:2024-06: no date can match/],
    [
      'site:github.com -site:gitlab.com',
      /the query has only operators \(site:github\.com -site:gitlab\.com\): add the words/,
    ],
  ])('%s → InputError', (query, message) => {
    let caught: unknown
    try {
      parseQueryOperators(query)
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(InputError)
    expect((caught as InputError).message).toMatch(message)
  })

  it('never throws anything but InputError, and parsing its own text again finds nothing new', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (query) => {
        let parsed: ReturnType<typeof parseQueryOperators>
        try {
          parsed = parseQueryOperators(query)
        } catch (error) {
          expect(error).toBeInstanceOf(InputError)
          return
        }
        if (parsed.operators.some((o) => o.name === 'phrase')) return
        const again = parseQueryOperators(parsed.text)
        expect(again.text).toBe(parsed.text)
        expect(again.operators).toEqual([])
      }),
      { numRuns: 500 },
    )
  })
})

describe('queryWithOperators', () => {
  it.each([
    [{ query: 'error handling in rust', phrases: ['error handling'] }, '"error handling" in rust'],
    [{ query: 'rust error types', phrases: ['error handling'] }, 'rust error types "error handling"'],
    [
      { query: 'jaguar speed', excludeTerms: ['car', 'land rover'], fileTypes: ['pdf'] },
      'jaguar speed -car -"land rover" filetype:pdf',
    ],
    [{ query: 'plain' }, 'plain'],
  ])('%j → %s', (request, expected) => {
    expect(queryWithOperators(request)).toBe(expected)
  })
})

describe('queryWithSiteOperators', () => {
  it.each([
    [{ query: 'tokio', includeDomains: ['github.com'] }, 'tokio site:github.com'],
    [
      { query: 'tokio', includeDomains: ['github.com', 'docs.rs'], excludeDomains: ['gist.github.com'] },
      'tokio (site:github.com OR site:docs.rs) -site:gist.github.com',
    ],
    [
      { query: 'rust errors', phrases: ['error handling'], excludeDomains: ['a.com', 'b.com'] },
      'rust errors "error handling" -site:a.com -site:b.com',
    ],
    [{ query: 'plain' }, 'plain'],
  ])('%j → %s', (request, expected) => {
    expect(queryWithSiteOperators(request)).toBe(expected)
  })
})
