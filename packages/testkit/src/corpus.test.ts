import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CORPUS, corpusFor, hostMatches, queryTerms, snippet, vendorUrl } from './index.js'

describe('queryTerms', () => {
  it.each([
    ['Rust async', ['rust', 'async']],
    ['What is the best way to use Kubernetes?', ['best', 'way', 'use', 'kubernetes']],
    ['Rust 异步编程', ['rust', '异步', '步编', '编程']],
    ['C++ and C# vs Node.js', ['c++', 'c#', 'node.js']],
  ])('%s → %j', (q, terms) => {
    expect(queryTerms(q)).toEqual(terms)
  })

  it('never throws and yields lower-case, non-empty terms', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (q) => {
        for (const t of queryTerms(q)) {
          expect(t.length).toBeGreaterThan(0)
          expect(t).toBe(t.toLowerCase())
        }
      }),
    )
  })
})

describe('corpusFor', () => {
  it('has a realistic corpus across tiers and languages', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(30)
    const hosts = new Set(CORPUS.map((d) => new URL(d.url).hostname))
    for (const h of ['github.com', 'stackoverflow.com', 'dev.to', 'zhuanlan.zhihu.com', 'juejin.cn', 'blog.csdn.net'])
      expect(hosts).toContain(h)
    expect(new Set(CORPUS.map((d) => d.url)).size).toBe(CORPUS.length)
  })

  it.each([
    ['tokio rust async', 'tokio.rs/blog'],
    ['tokio-rs github repository', 'github.com/tokio-rs/tokio'],
    ['kubernetes pods', 'kubernetes.io/docs/concepts/workloads/pods'],
    ['postgresql upsert on conflict', 'stackoverflow.com/questions/1109061'],
    ['Rust 异步编程', 'zhihu.com'],
    ['WebTransport HTTP/3', 'developer.mozilla.org'],
  ])('ranks a relevant document first for %s', (q, fragment) => {
    expect(
      corpusFor(q, { count: 3 })
        .map((d) => d.url)
        .join(' '),
    ).toContain(fragment)
  })

  it('pads with generated documents to exactly count, deterministically, for any query', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.integer({ min: 1, max: 40 }), (q, count) => {
        const a = corpusFor(q, { count })
        expect(a).toHaveLength(count)
        expect(corpusFor(q, { count })).toEqual(a)
        for (const d of a) expect(() => new URL(d.url)).not.toThrow()
      }),
      { numRuns: 60 },
    )
  })

  it('keeps generated padding inside the filters', () => {
    const after = new Date('2026-10-01T00:00:00Z')
    const docs = corpusFor('zzz unmatched topic', { count: 10, includeDomains: ['example.org'], after })
    for (const d of docs) {
      expect(hostMatches(d.url, 'example.org')).toBe(true)
      expect(Date.parse(d.publishedAt)).toBeGreaterThanOrEqual(after.getTime())
    }
  })

  it('hides documents only another vendor finds', () => {
    const only = CORPUS.filter((d) => d.only)
    expect(only.length).toBeGreaterThanOrEqual(3)
    for (const doc of only) {
      const q = doc.title
      const other = (['brave', 'exa', 'tavily', 'grok'] as const).find((v) => v !== doc.only)!
      expect(corpusFor(q, { vendor: doc.only!, count: 5 }).map((d) => d.url)).toContain(doc.url)
      expect(corpusFor(q, { vendor: other, count: 20 }).map((d) => d.url)).not.toContain(doc.url)
    }
  })
})

describe('vendorUrl', () => {
  it.each([
    ['brave', 'https://github.com/tokio-rs/tokio', 'https://www.github.com/tokio-rs/tokio/'],
    [
      'brave',
      'https://docs.python.org/3/library/asyncio-task.html',
      'https://docs.python.org/3/library/asyncio-task.html',
    ],
    [
      'tavily',
      'https://react.dev/reference/react/useEffect',
      'https://react.dev/reference/react/useEffect?utm_source=tavily&utm_medium=api',
    ],
    ['grok', 'https://react.dev/reference/react/useEffect', 'https://react.dev/reference/react/useEffect#overview'],
    ['exa', 'https://react.dev/reference/react/useEffect', 'https://react.dev/reference/react/useEffect'],
  ] as const)('%s: %s → %s', (vendor, url, expected) => {
    expect(vendorUrl(url, vendor)).toBe(expected)
  })
})

describe('snippet', () => {
  it('picks the sentence with a query term and keeps version numbers whole', () => {
    const doc = CORPUS.find((d) => d.url.includes('kubernetes-v1-34'))!
    expect(snippet(doc, 'kubernetes release')).toContain('v1.34')
  })
})
