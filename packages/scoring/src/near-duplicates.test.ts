import { readFileSync } from 'node:fs'
import type { ProviderName } from '@search-layer/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { collapseNearDuplicates, merge, type MergedResult, type ResultBatch } from './index.js'
import { type CollapsibleResult, fingerprint, isNearDuplicate } from './near-duplicates.js'

const now = new Date('2026-01-15T12:00:00Z')

function fixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../test/fixtures/${name}`, import.meta.url), 'utf8')) as T
}

interface Recorded {
  provider: ProviderName
  rank: number
  title: string
  url: string
  snippet: string
}

function batchesOf(query: string, results: readonly Recorded[]): ResultBatch[] {
  const byProvider = new Map<ProviderName, Recorded[]>()
  for (const r of results) byProvider.set(r.provider, [...(byProvider.get(r.provider) ?? []), r])
  return [...byProvider].map(([provider, list]) => ({
    provider,
    query,
    results: list.map((r) => ({ ...r })),
  }))
}

/** Every group as its URLs: the kept result first, then the copies folded into it. */
function groupsOf(results: readonly (MergedResult & { duplicates?: { url: string }[] })[]): string[][] {
  return results.map((r) => [r.url, ...(r.duplicates ?? []).map((d) => d.url)])
}

const braveSk = fixture<{ web: { results: { title: string; url: string; description: string }[] } }>(
  'sk--brave_what_is_the_semantic_kernel.json',
)
const tavilySk = fixture<{ results: { title: string; url: string; content: string }[] }>(
  'sk--tavily_what_is_the_semantic_kernel.json',
)
const exaAgents = fixture<{ results: { title: string; url: string; text: string }[] }>(
  'crewai--search-contents-text-2.json',
)
const bochaEsg = fixture<{ data: { webPages: { value: { name: string; url: string; snippet: string }[] } } }>(
  'bocha-docs-example--web-search-alibaba-esg-2024.json',
)

// The recorded sets hold different pages on one topic: titles like "Semantic Kernel 101" twice, one site's
// navigation text at the top of seven pages, five articles on one report. None of them may be folded together.
const RECORDED: [string, ResultBatch[]][] = [
  [
    'brave + tavily, "what is the semantic kernel"',
    [
      {
        provider: 'brave',
        query: 'what is the semantic kernel',
        results: braveSk.web.results.map((r, i) => ({
          title: r.title,
          url: r.url,
          snippet: r.description,
          rank: i + 1,
        })),
      },
      {
        provider: 'tavily',
        query: 'what is the semantic kernel',
        results: tavilySk.results.map((r, i) => ({ title: r.title, url: r.url, snippet: r.content, rank: i + 1 })),
      },
    ],
  ],
  [
    'exa with page text, one site seven times',
    [
      {
        provider: 'exa',
        query: 'autonomous ai agents',
        results: exaAgents.results.map((r, i) => ({
          title: r.title,
          url: r.url,
          snippet: r.text.slice(0, 500),
          rank: i + 1,
        })),
      },
    ],
  ],
  [
    'bocha, one report in several articles',
    [
      {
        provider: 'brave',
        query: '阿里巴巴2024年的esg报告',
        results: bochaEsg.data.webPages.value.map((r, i) => ({
          title: r.name,
          url: r.url,
          snippet: r.snippet,
          rank: i + 1,
        })),
      },
    ],
  ],
]

describe('collapseNearDuplicates', () => {
  const syndicated = fixture<{ cases: { name: string; query: string; results: Recorded[]; expect: string[][] }[] }>(
    'syndicated.json',
  )

  it.each(syndicated.cases.map((c) => [c.name, c] as const))('folds copies of one page: %s', (_, c) => {
    const merged = merge(batchesOf(c.query, c.results), { now, queries: [c.query] })
    // Canonical URLs alone keep every copy apart.
    expect(merged).toHaveLength(c.results.length)
    const collapsed = collapseNearDuplicates(merged)
    expect(groupsOf(collapsed).map((g) => [...g].sort())).toEqual(
      expect.arrayContaining(c.expect.map((g) => [...g].sort())),
    )
    expect(collapsed).toHaveLength(c.expect.length)
  })

  it('keeps the first copy in place and gathers every source', () => {
    const c = syndicated.cases[0]!
    const merged = merge(batchesOf(c.query, c.results), { now, queries: [c.query] })
    const collapsed = collapseNearDuplicates(merged)
    const kept = collapsed.find((r) => r.duplicates)!
    expect(kept.url).toBe(merged.find((r) => groupsOf([kept])[0]!.includes(r.url))!.url)
    expect(kept.sources).toEqual(['brave', 'exa', 'tavily'])
    expect(kept.source).toBe('brave, exa, tavily')
    expect(kept.duplicates).toHaveLength(3)
    for (const d of kept.duplicates!) expect(d.sources.length).toBeGreaterThan(0)
  })

  it.each(RECORDED)('leaves different pages apart in a recorded set: %s', (_, batches) => {
    const merged = merge(batches, { now })
    const collapsed = collapseNearDuplicates(merged)
    expect(groupsOf(collapsed).filter((g) => g.length > 1)).toEqual([])
    expect(collapsed).toHaveLength(merged.length)
  })

  it('decides the same groups whatever the input order', () => {
    const c = syndicated.cases[0]!
    const merged = merge(batchesOf(c.query, c.results), { now, queries: [c.query] })
    const sortedGroups = (list: readonly MergedResult[]) =>
      groupsOf(collapseNearDuplicates(list))
        .map((g) => [...g].sort())
        .sort((a, b) => (a[0]! < b[0]! ? -1 : 1))
    expect(sortedGroups([...merged].reverse())).toEqual(sortedGroups(merged))
  })

  // The index and the shared-word count only skip pairs that cannot match: the groups are those of checking every
  // earlier result in turn.
  it('groups as a scan of every earlier result would', () => {
    const naiveGroups = (list: readonly CollapsibleResult[]): string[][] => {
      const prints = list.map(fingerprint)
      const groups: number[][] = []
      const groupOf: number[] = []
      for (let i = 0; i < list.length; i++) {
        let home = -1
        for (let j = 0; j < i; j++) {
          const g = groupOf[j]!
          if ((home === -1 || g < home) && isNearDuplicate(prints[j]!, prints[i]!)) home = g
        }
        if (home === -1) groups.push([i])
        else groups[home]!.push(i)
        groupOf[i] = home === -1 ? groups.length - 1 : home
      }
      return groups.map((g) => g.map((i) => list[i]!.url))
    }
    const words = ['rust', 'async', 'runtime', 'guide', 'tokio', 'the', 'for', 'beginners', '异步', '编程', '教程']
    const text = (min: number, max: number) =>
      fc.array(fc.constantFrom(...words), { minLength: min, maxLength: max }).map((w) => w.join(' '))
    // A few shared snippets, so that copies (and near misses on the title) are common.
    const snippets = fc.constantFrom(
      'how the tokio runtime schedules async tasks across worker threads for rust beginners',
      'rust async runtime guide for beginners covering tokio tasks and the executor',
      '异步 编程 教程 rust async runtime guide for the tokio beginners',
    )
    const result = fc.record({ title: text(1, 9), snippet: fc.oneof(text(0, 14), snippets), site: fc.nat(5) })
    fc.assert(
      fc.property(fc.array(result, { maxLength: 40 }), (rows) => {
        const list = rows.map((r, i) => ({
          title: r.title,
          snippet: r.snippet,
          url: `https://site${r.site}.example/${i}`,
          canonicalUrl: `https://site${r.site}.example/${i}`,
          sources: ['brave'] as ProviderName[],
          source: 'brave',
        }))
        expect(groupsOf(collapseNearDuplicates(list) as never)).toEqual(naiveGroups(list))
      }),
      { numRuns: 300 },
    )
  })

  it('never drops a URL and never throws on arbitrary results', () => {
    const result = fc.record({
      title: fc.oneof(
        fc.string(),
        fc.constantFrom('Same long article title about many things here', '同一篇文章的标题'),
      ),
      snippet: fc.oneof(fc.string(), fc.constant('the same words in the same order make the same shingles here')),
      n: fc.nat(1_000_000),
    })
    fc.assert(
      fc.property(fc.array(result, { maxLength: 30 }), (rows) => {
        const list = rows.map((r, i) => ({
          title: r.title,
          snippet: r.snippet,
          url: `https://site${r.n % 7}.example/${i}`,
          canonicalUrl: `https://site${r.n % 7}.example/${i}`,
          sources: ['brave'] as ProviderName[],
          source: 'brave',
        }))
        const out = collapseNearDuplicates(list)
        expect(
          groupsOf(out as never)
            .flat()
            .sort(),
        ).toEqual(list.map((r) => r.url).sort())
      }),
    )
  })
})
