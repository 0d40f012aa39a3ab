import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LARGE, NOW, RUST_ASYNC, ZH_RESULTS } from '../test/fixtures.js'
import { estimateTokens, synthesize, toJSON, toMarkdown, toText } from './index.js'

const codePoints = (s: string) => Array.from(s).length

describe('toJSON', () => {
  it('has exactly {answer, lead, groups: [{label, summary, results}], conflicts, omitted} and survives JSON', () => {
    const s = synthesize(
      { query: 'rust async', results: RUST_ASYNC, answer: 'Tokio is the default runtime.', answerSource: 'tavily' },
      { now: NOW },
    )
    const json = toJSON(s)
    expect(Object.keys(json).sort()).toEqual(['answer', 'conflicts', 'groups', 'lead', 'omitted'])
    expect(json.lead).toBeNull()
    expect(Object.keys(json.answer!).sort()).toEqual(['citations', 'source', 'text'])
    for (const g of json.groups) expect(Object.keys(g).sort()).toEqual(['label', 'results', 'summary'])
    expect(json.groups[0]!.results[0]).toEqual({
      n: 1,
      title: 'Announcing Tokio 1.48 | Tokio',
      url: 'https://tokio.rs/blog/2026-10-tokio-1-48',
      snippet: 'Tokio 1.48 ships a faster multi-threaded scheduler and io_uring file operations behind a feature flag.',
      sources: ['brave', 'exa'],
      score: 0.91,
      publishedAt: '2026-11-18T09:12:00Z',
    })
    expect(JSON.parse(JSON.stringify(json))).toEqual(json)
  })
})

describe('markdown safety', () => {
  it('keeps untrusted titles, URLs and snippets from forming links, code or HTML', () => {
    const s = synthesize({
      query: 'x',
      results: [
        {
          title: 'Click [here](https://evil.example) now',
          url: 'https://example.com/a path/(x)',
          snippet: 'Run `rm -rf` <script>alert(1)</script> [login](https://evil.example)',
          sources: ['brave'],
        },
      ],
    })
    const [lead, item] = toMarkdown(s).trimEnd().split('\n\n')
    // The answer line quotes the snippet: escaped the same way.
    expect(lead).toBe("Run 'rm -rf' \\<script\\>alert(1)\\</script\\> \\[login\\](https://evil.example) [1]")
    expect(item).toBe(
      "1. [Click \\[here\\](https://evil.example) now](https://example.com/a%20path/%28x%29) — Run 'rm -rf' \\<script\\>alert(1)\\</script\\> \\[login\\](https://evil.example) `[brave]`",
    )
  })
})

describe('budgets', () => {
  it('cuts snippets before dropping any result', () => {
    const unbounded = synthesize({ query: 'rust async', results: RUST_ASYNC }, { now: NOW })
    const budget = Math.max(codePoints(toMarkdown(unbounded)), codePoints(toText(unbounded))) - 200
    const s = synthesize({ query: 'rust async', results: RUST_ASYNC }, { now: NOW, maxChars: budget })
    expect(s.omitted).toBe(0)
    expect(s.groups.flatMap((g) => g.results)).toHaveLength(RUST_ASYNC.length)
    expect(s.groups.flatMap((g) => g.results).some((r) => r.snippet.endsWith('…'))).toBe(true)
    expect(codePoints(toText(s))).toBeLessThanOrEqual(budget)
  })

  it.each([3000, 1500, 900, 600, 400, 250])(
    'fits markdown and text into %i characters, dropping tail results and saying how many',
    (maxChars) => {
      const s = synthesize(
        { query: 'rust async', results: LARGE, answer: 'Tokio is the most used runtime.', answerSource: 'tavily' },
        { now: NOW, maxChars },
      )
      const md = toMarkdown(s)
      const text = toText(s)
      expect(codePoints(md)).toBeLessThanOrEqual(maxChars)
      expect(codePoints(text)).toBeLessThanOrEqual(maxChars)
      const kept = s.groups.flatMap((g) => g.results.map((r) => r.n))
      expect(kept.length + s.omitted).toBe(LARGE.length)
      if (s.omitted > 0) {
        expect(md).toContain(`… ${s.omitted} more result${s.omitted === 1 ? '' : 's'} omitted`)
        // The tail goes first: whatever is kept outranks whatever was dropped, cited results aside.
        const cited = new Set(s.answer?.citations ?? [])
        const uncited = kept.filter((n) => !cited.has(n))
        expect(Math.max(0, ...uncited)).toBeLessThanOrEqual(LARGE.length - s.omitted + cited.size)
      }
    },
  )

  it('says how many were left out in Chinese', () => {
    const s = synthesize({ query: 'Rust 异步编程', results: ZH_RESULTS }, { now: NOW, maxChars: 420 })
    expect(s.omitted).toBeGreaterThan(0)
    expect(toMarkdown(s)).toContain(`…另有 ${s.omitted} 条结果未显示`)
    expect(codePoints(toMarkdown(s))).toBeLessThanOrEqual(420)
  })

  it.each([
    ['Latin text', 'abcd efgh', 3],
    ['Han text', '异步编程', 4],
    ['mixed', 'Tokio 运行时', 5],
  ])('estimates tokens for %s', (_name, text, tokens) => {
    expect(estimateTokens(text)).toBe(tokens)
  })

  it('maps a token budget to fewer Han than Latin characters', () => {
    const zh = synthesize({ query: 'Rust 异步编程', results: ZH_RESULTS }, { now: NOW, maxTokens: 200 })
    const en = synthesize({ query: 'rust async', results: RUST_ASYNC }, { now: NOW, maxTokens: 200 })
    expect(estimateTokens(toMarkdown(zh))).toBeLessThanOrEqual(200)
    expect(estimateTokens(toText(zh))).toBeLessThanOrEqual(200)
    expect(estimateTokens(toMarkdown(en))).toBeLessThanOrEqual(200)
    expect(codePoints(toMarkdown(en))).toBeGreaterThan(codePoints(toMarkdown(zh)))
  })

  it('holds any budget on arbitrary input, never throwing', () => {
    const result = fc.record({
      title: fc.string({ maxLength: 80 }),
      url: fc.webUrl(),
      snippet: fc.oneof(
        fc.string({ maxLength: 400 }),
        fc.constantFrom('Bun 1.2 is out.', 'Tokio 运行时有 2.8 万颗星。', 'GPT-5 was released on August 7, 2025.'),
      ),
      sources: fc.subarray(['brave', 'exa', 'tavily', 'grok']),
      score: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
      published_date: fc.option(fc.constantFrom('2026-01-02T00:00:00Z', 'not a date', '2019-05-01'), { nil: null }),
    })
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.array(result, { maxLength: 24 }),
        fc.option(fc.string({ maxLength: 300 }), { nil: undefined }),
        fc.integer({ min: 1, max: 4000 }),
        fc.integer({ min: 1, max: 1000 }),
        (query, results, answer, maxChars, maxTokens) => {
          const s = synthesize({ query, results, answer, answerSource: 'tavily' }, { now: NOW, maxChars, maxTokens })
          for (const out of [toMarkdown(s), toText(s)]) {
            expect(codePoints(out)).toBeLessThanOrEqual(maxChars)
            expect(estimateTokens(out)).toBeLessThanOrEqual(maxTokens)
          }
          const ns = s.groups.flatMap((g) => g.results.map((r) => r.n))
          expect(new Set(ns).size).toBe(ns.length)
          expect(ns.length + s.omitted).toBe(results.length)
        },
      ),
      { numRuns: 150 },
    )
  })

  it('is deterministic for arbitrary input without a budget', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ title: fc.string(), url: fc.webUrl(), snippet: fc.string() }), { maxLength: 20 }),
        (results) => {
          const a = synthesize({ query: 'q', results }, { now: NOW })
          const b = synthesize({ query: 'q', results }, { now: NOW })
          expect(b).toEqual(a)
          expect(a.omitted).toBe(0)
          expect(a.groups.flatMap((g) => g.results)).toHaveLength(results.length)
        },
      ),
      { numRuns: 100 },
    )
  })

  it('fits 200 results into a small budget quickly', () => {
    const many = Array.from({ length: 200 }, (_, i) => ({
      ...LARGE[i % LARGE.length]!,
      url: `https://site${i}.example.com/p`,
    }))
    const started = performance.now()
    const s = synthesize({ query: 'rust async', results: many }, { now: NOW, maxChars: 2000 })
    const ms = performance.now() - started
    expect(codePoints(toMarkdown(s))).toBeLessThanOrEqual(2000)
    expect(s.omitted).toBeGreaterThan(150)
    expect(ms).toBeLessThan(2000)
  })
})
