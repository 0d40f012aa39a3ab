import { InputError } from '@search-layer/core'
import { describe, expect, it } from 'vitest'
import { LARGE, NOW, RUST_ASYNC, ZH_RESULTS } from '../test/fixtures.js'
import { type Synthesis, synthesize, toMarkdown, toText } from './index.js'

const allNumbers = (s: Synthesis) => s.groups.flatMap((g) => g.results.map((r) => r.n)).sort((a, b) => a - b)
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1)

describe('size strategies', () => {
  it('lists ≤ 5 results one by one with source tags and score', () => {
    const s = synthesize({ query: 'rust async runtime', results: RUST_ASYNC.slice(0, 3) }, { now: NOW })
    expect(s.strategy).toBe('list')
    expect(s.groups).toHaveLength(1)
    const md = toMarkdown(s)
    expect(md.split('\n\n')[1]!.split('\n')[0]).toBe(
      '1. [Announcing Tokio 1.48 | Tokio](https://tokio.rs/blog/2026-10-tokio-1-48) — Tokio 1.48 ships a faster multi-threaded scheduler and io_uring file operations behind a feature flag. `[brave, exa]` ⭐0.91',
    )
    expect(md).toMatch(
      /^2\. \[tokio-rs\/tokio: .*\]\(https:\/\/github\.com\/tokio-rs\/tokio\) — .* `\[exa\]` ⭐0\.88$/m,
    )
    expect(md).toMatch(/^3\. \[Pin in std::pin - Rust\]/m)
    expect(md).not.toMatch(/\*\*/)
  })

  it.each([
    [6, 'grouped'],
    [8, 'grouped'],
    [16, 'overview'],
    [18, 'overview'],
    [5, 'list'],
  ] as const)('%i results → %s', (count, strategy) => {
    expect(synthesize({ query: 'rust async', results: LARGE.slice(0, count) }, { now: NOW }).strategy).toBe(strategy)
  })

  it('groups 5–15 results into labelled topics with a summary each', () => {
    const s = synthesize({ query: 'rust async', results: RUST_ASYNC }, { now: NOW })
    expect(s.strategy).toBe('grouped')
    expect(allNumbers(s)).toEqual(range(RUST_ASYNC.length))
    const labels = s.groups.map((g) => g.label)
    expect(labels.some((l) => /tokio|scheduler/i.test(l))).toBe(true)
    expect(labels.some((l) => /pin|future/i.test(l))).toBe(true)
    // The bread recipe shares no topic with the rest.
    const bread = s.groups.find((g) => g.results.some((r) => r.url.includes('sourdough')))!
    expect(bread.results).toHaveLength(1)
    expect(bread.label).toBe('Other results')
    const md = toMarkdown(s)
    for (const g of s.groups) expect(md).toContain(`**${g.label}** — ${g.summary}`)
    expect(md).toMatch(
      /^- \[1\] \[Announcing Tokio 1\.48 \| Tokio\]\(https:\/\/tokio\.rs\/blog\/2026-10-tokio-1-48\) — .* `\[brave, exa\]` ⭐0\.91$/m,
    )
  })

  it('gives > 15 results an overview, the top 5 and a which-aspect-next question', () => {
    const s = synthesize({ query: 'rust async', results: LARGE }, { now: NOW })
    expect(s.strategy).toBe('overview')
    expect(s.overview).toMatch(/^Results cover .*\(\d+\)/)
    expect(allNumbers(s)).toEqual(range(18))
    const md = toMarkdown(s)
    expect(md).toContain('**Top 5 most relevant results:**')
    expect(md.match(/^\d+\. \[/gm)).toHaveLength(5)
    expect(md).toMatch(/^5\. \[/m)
    expect(md).not.toMatch(/^6\. \[/m)
    expect(md.trimEnd().split('\n').at(-1)).toMatch(
      /^Found 18 results from brave, exa, tavily and grok; which aspect next — .+\?$/,
    )
  })

  it('says so when there are no results', () => {
    const s = synthesize({ query: 'nothing', results: [] })
    expect(s).toMatchObject({ strategy: 'list', groups: [], omitted: 0, answer: null })
    expect(toMarkdown(s)).toBe('No results.\n')
    expect(toMarkdown(synthesize({ query: '没有', results: [] }))).toBe('没有找到结果。\n')
  })
})

describe('topics', () => {
  it('puts every result in exactly one group and never groups by provider', () => {
    const s = synthesize({ query: 'rust async', results: LARGE }, { now: NOW })
    const ns = s.groups.flatMap((g) => g.results.map((r) => r.n))
    expect(new Set(ns).size).toBe(ns.length)
    expect(ns.sort((a, b) => a - b)).toEqual(range(LARGE.length))
    const providerNames = ['brave', 'exa', 'tavily', 'grok']
    for (const g of s.groups)
      expect(g.terms.map((t) => t.toLowerCase()).filter((t) => providerNames.includes(t))).toEqual([])
    // At least one topic mixes results found by different providers.
    expect(s.groups.some((g) => new Set(g.results.flatMap((r) => r.sources)).size > 1)).toBe(true)
  })

  it('is stable: the same input gives the same synthesis, every time', () => {
    const runs = Array.from({ length: 5 }, () =>
      synthesize({ query: 'rust async', results: structuredClone(LARGE) }, { now: NOW }),
    )
    for (const run of runs.slice(1)) expect(run).toEqual(runs[0])
    expect(toMarkdown(runs[0]!)).toBe(toMarkdown(runs[4]!))
  })

  it('keeps each group in rank order and orders groups by their best result', () => {
    const s = synthesize({ query: 'rust async', results: LARGE }, { now: NOW })
    for (const g of s.groups.filter((g) => g.terms.length > 0)) {
      const ns = g.results.map((r) => r.n)
      expect(ns).toEqual([...ns].sort((a, b) => a - b))
    }
    const firsts = s.groups.filter((g) => g.terms.length > 0).map((g) => g.results[0]!.n)
    expect(firsts).toEqual([...firsts].sort((a, b) => a - b))
  })

  it.each([
    ['Rust 异步编程', 'zh'],
    // Core's CJK rule: kanji beside kana is Japanese and hanja beside Hangul Korean; neither is worded in Chinese.
    ['Rust の非同期', 'en'],
    ['러스트 非同期', 'en'],
    ['？！', 'en'],
  ] as const)('words the overview for %j in %s by default', (query, language) => {
    expect(synthesize({ query, results: ZH_RESULTS }, { now: NOW }).language).toBe(language)
  })

  it('clusters Chinese results on Han terms and labels them with whole words', () => {
    const s = synthesize({ query: 'Rust 异步编程', results: ZH_RESULTS }, { now: NOW })
    expect(s.language).toBe('zh')
    expect(s.strategy).toBe('grouped')
    const labels = s.groups.map((g) => g.label)
    expect(labels.some((l) => l.includes('运行时'))).toBe(true)
    expect(labels.some((l) => l.includes('Pin') || l.includes('自引用'))).toBe(true)
    const pinGroup = s.groups.find((g) => g.label.includes('Pin') || g.label.includes('自引用'))!
    expect(pinGroup.results.map((r) => r.n)).toEqual(expect.arrayContaining([4, 5]))
    expect(allNumbers(s)).toEqual(range(ZH_RESULTS.length))
  })
})

describe('answer first', () => {
  it('leads with the provider answer, cites the results that support it and drops search narration', () => {
    const s = synthesize(
      {
        query: 'rust async runtime',
        results: RUST_ASYNC,
        answer:
          'Based on my search results, Tokio is the most widely used async runtime, with a work-stealing scheduler.',
        answer_source: 'tavily',
      },
      { now: NOW },
    )
    expect(s.answer?.text).toBe('Tokio is the most widely used async runtime, with a work-stealing scheduler.')
    expect(s.answer?.source).toBe('tavily')
    expect(s.answer?.citations).toEqual(expect.arrayContaining([2, 4]))
    expect(s.answer?.citations.every((n) => n >= 1 && n <= RUST_ASYNC.length)).toBe(true)
    expect(s.answer?.confidence).toBe('high')
    const md = toMarkdown(s)
    expect(md.startsWith('Tokio is the most widely used async runtime')).toBe(true)
    expect(md.split('\n')[0]).toMatch(/ \[\d+\](\[\d+\])*$/)
  })

  it.each([
    ['I searched for "bun version" and found several pages. Bun 1.2 is current.', 'Bun 1.2 is current.'],
    ['Here is what I found: Deno 2 ships npm support.', 'Deno 2 ships npm support.'],
    ['According to the search results, the capital is Canberra.', 'The capital is Canberra.'],
    ['我搜索了相关资料。Tokio 是最常用的运行时。', 'Tokio 是最常用的运行时。'],
    ['根据搜索结果,Tokio 是最常用的运行时。', 'Tokio 是最常用的运行时。'],
    ['Tokio is a runtime.', 'Tokio is a runtime.'],
  ])('removes the opener of %j', (answer, expected) => {
    expect(synthesize({ query: 'q', results: RUST_ASYNC.slice(0, 2), answer, answerSource: 'grok' }).answer?.text).toBe(
      expected,
    )
  })

  it('attributes an answer that only one site supports', () => {
    const s = synthesize(
      {
        query: 'bread',
        results: RUST_ASYNC,
        answer: 'Feed the sourdough starter the night before baking in a Dutch oven.',
        answerSource: 'tavily',
      },
      { now: NOW },
    )
    expect(s.answer).toMatchObject({ citations: [8], confidence: 'medium' })
    expect(toMarkdown(s).split('\n')[0]).toBe(
      'According to tavily, Feed the sourdough starter the night before baking in a Dutch oven. [8]',
    )
  })
})

describe('confidence wording', () => {
  const fresh = RUST_ASYNC.slice(0, 2)

  it('states several fresh independent sources plainly', () => {
    const s = synthesize({ query: 'tokio', results: fresh }, { now: NOW })
    expect(s.groups[0]).toMatchObject({
      confidence: 'high',
      summary: 'Tokio 1.48 ships a faster multi-threaded scheduler and io_uring file operations behind a feature flag.',
    })
  })

  it.each([
    ['en', 'According to tokio.rs, Tokio 1.48'],
    ['zh', '根据 tokio.rs,Tokio 1.48'],
  ] as const)('attributes a single source (%s)', (language, start) => {
    const s = synthesize({ query: 'tokio', results: fresh.slice(0, 1) }, { now: NOW, language })
    expect(s.groups[0]!.confidence).toBe('medium')
    expect(s.groups[0]!.summary.startsWith(start)).toBe(true)
  })

  it('attributes old sources and says how old', () => {
    const s = synthesize({ query: 'tokio', results: fresh }, { now: new Date('2030-01-01T00:00:00Z') })
    expect(s.groups[0]).toMatchObject({ confidence: 'medium' })
    expect(s.groups[0]!.summary).toMatch(/^According to tokio\.rs \(2026-11\), /)
  })

  it('uses a tighter freshness window for news', () => {
    const later = new Date('2027-02-01T00:00:00Z')
    expect(
      synthesize({ query: 'tokio', results: fresh, intent: 'tutorial' }, { now: later }).groups[0]!.confidence,
    ).toBe('high')
    expect(synthesize({ query: 'tokio', results: fresh, intent: 'news' }, { now: later }).groups[0]!.confidence).toBe(
      'medium',
    )
  })
})

describe('input', () => {
  it('accepts the engine response shape, reading sources from "source" when the array is missing', () => {
    const s = synthesize({
      query: 'q',
      intent: null,
      answer: undefined,
      results: [
        { title: '', url: 'https://www.example.com/a', snippet: 'text', published_date: null, source: 'brave, exa' },
      ],
    })
    expect(s.groups[0]!.results[0]).toEqual({
      n: 1,
      title: 'example.com',
      url: 'https://www.example.com/a',
      snippet: 'text',
      sources: ['brave', 'exa'],
      publishedAt: null,
    })
  })

  it.each([
    [{ results: [] }, 'query'],
    [{ query: 'q', results: [{ title: 't' }] }, 'results.0.url'],
    [{ query: 'q', results: [{ title: 't', url: 'u', score: Number.NaN }] }, 'results.0.score'],
  ])('throws InputError naming the bad field', (input, path) => {
    let error: unknown
    try {
      synthesize(input as never)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(InputError)
    expect((error as InputError).issues.map((i) => i.path)).toContain(path)
  })
})

describe('plain text', () => {
  it('gives number, title, URL, snippet and relevance for every result', () => {
    const s = synthesize(
      { query: 'rust async', results: RUST_ASYNC, answer: 'Tokio is the default runtime.', answerSource: 'tavily' },
      { now: NOW },
    )
    const text = toText(s)
    expect(text.startsWith('Answer (tavily): ')).toBe(true)
    for (const [i, r] of RUST_ASYNC.entries()) {
      expect(text).toContain(
        `[${i + 1}] ${r.title}\n    ${r.url}\n    ${r.snippet}\n    relevance ${r.score!.toFixed(2)} · ${r.sources.join(', ')}`,
      )
    }
    expect(text).toMatch(/^Topic: .+ — .+$/m)
    expect(text).not.toMatch(/\]\(http/)
  })
})

describe('group order', () => {
  it('groups follow their best-ranked result, so an unclustered top result is not buried at the end', () => {
    const results = [
      {
        title: 'Quantum annealing primer',
        url: 'https://physics.example.edu/annealing',
        snippet: 'An introduction to annealing hardware.',
        published_date: null,
        source: 'exa',
        sources: ['exa' as const],
        score: 0.95,
      },
      ...Array.from({ length: 7 }, (_, i) => ({
        title: `Kubernetes autoscaling guide part ${i + 1}`,
        url: `https://k8s.example.com/autoscaling/${i + 1}`,
        snippet: 'Horizontal pod autoscaling with metrics server and custom metrics.',
        published_date: null,
        source: 'brave',
        sources: ['brave' as const],
        score: 0.9 - i * 0.05,
      })),
    ]
    const s = synthesize({ query: 'cluster scaling', results }, { now: NOW })
    expect(s.strategy).toBe('grouped')
    expect(s.groups[0]!.results[0]!.n).toBe(1)
    expect(s.groups[0]!.label).not.toBe('Other results')
    const firsts = s.groups.map((g) => g.results[0]!.n)
    expect([...firsts].sort((a, b) => a - b)).toEqual(firsts)
  })
})

describe('topic labels', () => {
  const doc = (n: number, title: string, snippet: string, host: string) => ({
    n,
    title,
    url: `https://${host}/${n}`,
    snippet,
    published_date: null,
    source: 'brave',
    sources: ['brave' as const],
  })
  // Every result shares "adds" or "advantages"; only some share a real topic.
  const results = [
    doc(1, 'Bun adds a faster bundler', 'The new bundler adds tree shaking and advantages for cold starts.', 'a.dev'),
    doc(2, 'Bundler advantages in Bun', 'Tree shaking in the Bun bundler adds advantages for large apps.', 'b.dev'),
    doc(3, 'Deno adds npm compatibility', 'npm compatibility layer adds advantages for migrating projects.', 'c.dev'),
    doc(4, 'Deno npm compatibility notes', 'The npm compatibility layer now resolves peer dependencies.', 'd.dev'),
    doc(5, 'Node adds a permission model', 'The permission model adds advantages for sandboxing scripts.', 'e.dev'),
    doc(6, 'Advantages of sourdough baking', 'Sourdough adds flavour and has advantages for digestion.', 'f.dev'),
  ]

  it('labels groups with shared noun phrases, never a verb, stop word or lone generic word', () => {
    const s = synthesize({ query: 'bun deno node runtimes', results }, { now: NOW })
    expect(s.strategy).toBe('grouped')
    const topics = s.groups.filter((g) => g.terms.length > 0)
    expect(topics.length).toBeGreaterThanOrEqual(2)
    for (const g of topics) {
      for (const term of g.terms) expect(['adds', 'advantages', 'the', 'has']).not.toContain(term.toLowerCase())
      // Each label term is shared by at least two results of its group.
      for (const term of g.terms) {
        const holders = g.results.filter((r) => `${r.title} ${r.snippet}`.toLowerCase().includes(term.toLowerCase()))
        expect(holders.length).toBeGreaterThanOrEqual(2)
      }
    }
    expect(topics.map((g) => g.label).join(' | ')).toMatch(/npm compatibility|compatibility layer/i)
    expect(topics.map((g) => g.label).join(' | ')).toMatch(/bundler|tree shaking/i)
  })

  it('sends a one-result topic to "Other results"', () => {
    const s = synthesize({ query: 'bun deno node runtimes', results }, { now: NOW })
    for (const g of s.groups.filter((g) => g.terms.length > 0)) expect(g.results.length).toBeGreaterThanOrEqual(2)
    const other = s.groups.find((g) => g.label === 'Other results')!
    expect(other.results.map((r) => r.n)).toEqual(expect.arrayContaining([6]))
  })

  it('keeps a phrase inside the title or the snippet and never repeats a word across labels', () => {
    const faq = [
      doc(1, 'Tokio runtime FAQ', 'Frequently asked questions collected from the Tokio Discord.', 'a.dev'),
      doc(2, 'Async runtime FAQ', 'Frequently asked questions collected by the maintainers.', 'b.dev'),
      doc(3, 'Runtime FAQ for beginners', 'Frequently asked questions collected over the years.', 'c.dev'),
      doc(4, 'Cargo workspaces explained', 'Cargo workspaces share one lock file and one target directory.', 'd.dev'),
      doc(5, 'Managing Cargo workspaces', 'Cargo workspaces keep crates in step.', 'e.dev'),
      doc(6, 'Sourdough starter basics', 'Feed the starter daily.', 'f.dev'),
    ]
    const s = synthesize({ query: 'rust async runtime', results: faq }, { now: NOW })
    const labels = s.groups.filter((g) => g.terms.length > 0).map((g) => g.label)
    expect(labels).toContain('Cargo workspaces')
    const faqLabel = labels.find((l) => /faq|frequently/i.test(l))!
    // Not "FAQ Frequently" (title end + snippet start), not "Frequently asked" again, not a lone "collected".
    expect(faqLabel).not.toMatch(/FAQ Frequently/)
    expect(faqLabel).not.toMatch(/collected/)
    const words = faqLabel.toLowerCase().split(/[ ,]+/)
    expect(new Set(words).size).toBe(words.length)
  })

  it('never joins Latin words across a Chinese word in a label', () => {
    const mixed = [
      doc(1, 'Rust 入门', '安装 cargo 以及 Tokio 运行时的步骤。', 'a.cn'),
      doc(2, 'Rust 环境配置', '配置 cargo 以及 Tokio 的方法。', 'b.cn'),
      doc(3, 'Rust 项目结构', '使用 cargo 以及 Tokio 创建项目。', 'c.cn'),
      doc(4, '所有权 详解', '所有权 与 借用 规则。', 'd.cn'),
      doc(5, '所有权 入门', '所有权 规则 示例。', 'e.cn'),
      doc(6, '天气', '今天 晴。', 'f.cn'),
    ]
    const s = synthesize({ query: 'rust 教程', results: mixed }, { now: NOW })
    for (const g of s.groups.filter((g) => g.terms.length > 0))
      for (const term of g.terms) expect(term).not.toMatch(/[a-z] ?以及|以及 ?[A-Z]/i)
  })
})
