import { describe, expect, it } from 'vitest'
import { type ExpandClassification, expandQuery, expandQueryWithLlm } from './index.js'

const now = () => new Date('2026-03-14T10:00:00Z')
const queriesOf = (query: string, c: ExpandClassification, maxQueries = 5) =>
  expandQuery(query, c, { now, maxQueries }).queries.map((q) => q.query)

// Classifications as @search-layer/intent returns them for these queries (intent, window, signals).
const c = {
  factual: (term: string, lang: 'en' | 'zh' = 'en'): ExpandClassification => ({
    intent: 'factual',
    freshness: null,
    signals: [{ intent: 'factual', term, lang }],
  }),
  status: (terms: string[], freshness: 'pw' | 'pm' = 'pm'): ExpandClassification => ({
    intent: 'status',
    freshness,
    signals: terms.map((term) => ({ intent: 'status', term, lang: /\p{Script=Han}/u.test(term) ? 'zh' : 'en' })),
  }),
  comparison: (term: string): ExpandClassification => ({
    intent: 'comparison',
    freshness: 'py',
    signals: [{ intent: 'comparison', term }],
  }),
  tutorial: (terms: string[]): ExpandClassification => ({
    intent: 'tutorial',
    freshness: 'py',
    signals: terms.map((term) => ({ intent: 'tutorial', term })),
  }),
  exploratory: (terms: string[] = []): ExpandClassification => ({
    intent: 'exploratory',
    freshness: null,
    signals: terms.map((term) => ({ intent: 'exploratory', term })),
  }),
  news: (terms: string[], freshness: 'pd' | 'pw'): ExpandClassification => ({
    intent: 'news',
    freshness,
    signals: terms.map((term) => ({ intent: 'news', term })),
  }),
  resource: (terms: string[]): ExpandClassification => ({
    intent: 'resource',
    freshness: null,
    signals: terms.map((term) => ({ intent: 'resource', term })),
  }),
}

describe('expandQuery per intent', () => {
  it.each([
    [
      'what is WebTransport',
      c.factual('what is'),
      ['what is WebTransport', 'WebTransport definition', 'WebTransport explained'],
    ],
    [
      'Kubernetes 是什么',
      c.factual('是什么', 'zh'),
      ['Kubernetes 是什么', 'what is Kubernetes', 'Kubernetes definition', 'Kubernetes explained'],
    ],
    [
      'latest Deno progress',
      c.status(['latest', 'progress']),
      ['latest Deno progress', 'Deno latest 2026', 'Deno update release'],
    ],
    [
      'Deno 最新进展',
      c.status(['最新进展']),
      ['Deno 最新进展', 'Deno latest progress', 'Deno latest 2026', 'Deno update release'],
    ],
    ['Bun vs Deno', c.comparison('vs'), ['Bun vs Deno', 'Bun advantages', 'Deno advantages']],
    [
      'difference between TCP and UDP',
      c.comparison('difference between'),
      ['difference between TCP and UDP', 'TCP vs UDP', 'TCP advantages', 'UDP advantages'],
    ],
    [
      'Postgres or MySQL for analytics',
      c.comparison('or'),
      [
        'Postgres or MySQL for analytics',
        'PostgreSQL vs MySQL for analytics',
        'PostgreSQL advantages',
        'MySQL advantages',
      ],
    ],
    [
      'should I use Bun or Node?',
      c.comparison('or'),
      ['should I use Bun or Node?', 'Bun vs Node', 'Bun advantages', 'Node advantages'],
    ],
    [
      'React 和 Vue 的区别',
      c.comparison('的区别'),
      ['React 和 Vue 的区别', 'React vs Vue', 'React advantages', 'Vue advantages'],
    ],
    [
      '用 Go 还是 Rust 写后端',
      c.comparison('还是'),
      ['用 Go 还是 Rust 写后端', 'Golang vs Rust backend development', 'Golang advantages', 'Rust advantages'],
    ],
    [
      'Kafka 与 RabbitMQ 对比',
      c.comparison('对比'),
      ['Kafka 与 RabbitMQ 对比', 'Kafka vs RabbitMQ', 'Kafka advantages', 'RabbitMQ advantages'],
    ],
    [
      'MySQL PostgreSQL 哪个好',
      c.comparison('哪个好'),
      ['MySQL PostgreSQL 哪个好', 'MySQL vs PostgreSQL', 'MySQL advantages', 'PostgreSQL advantages'],
    ],
    [
      'React vs Vue vs Svelte',
      c.comparison('vs'),
      ['React vs Vue vs Svelte', 'React advantages', 'Vue advantages', 'Svelte advantages'],
    ],
    [
      'pros and cons of GraphQL',
      c.comparison('pros and cons'),
      ['pros and cons of GraphQL', 'GraphQL advantages', 'GraphQL alternatives'],
    ],
    ['Rust CLI tutorial', c.tutorial(['tutorial']), ['Rust CLI tutorial', 'Rust CLI step by step guide']],
    [
      'how to deploy k8s on AWS',
      c.tutorial(['how to', 'deploy']),
      [
        'how to deploy k8s on AWS',
        'how to deploy Kubernetes on AWS',
        'deploy Kubernetes on AWS tutorial',
        'deploy Kubernetes on AWS step by step guide',
      ],
    ],
    [
      'Rust 异步编程 教程',
      c.tutorial(['教程']),
      ['Rust 异步编程 教程', 'Rust async programming tutorial', 'Rust async programming step by step guide'],
    ],
    ['RISC-V', c.exploratory(), ['RISC-V', 'RISC-V overview', 'RISC-V ecosystem', 'RISC-V use cases']],
    [
      'Rust 异步编程',
      c.exploratory(),
      [
        'Rust 异步编程',
        'Rust async programming',
        'Rust async programming overview',
        'Rust async programming ecosystem',
        'Rust async programming use cases',
      ],
    ],
    [
      'deep dive into the Linux scheduler',
      c.exploratory(['deep dive']),
      [
        'deep dive into the Linux scheduler',
        'Linux scheduler overview',
        'Linux scheduler ecosystem',
        'Linux scheduler use cases',
      ],
    ],
    ['AI 新闻', c.news(['新闻'], 'pw'), ['AI 新闻', 'AI news', 'AI news this week 2026', 'AI announcement latest']],
    [
      'Rust news today',
      c.news(['news', 'today'], 'pd'),
      ['Rust news today', 'Rust news 2026-03-14', 'Rust announcement latest'],
    ],
    [
      'Anthropic MCP official documentation',
      c.resource(['official documentation']),
      ['Anthropic MCP official documentation', 'Anthropic MCP GitHub'],
    ],
    [
      'Python 下载',
      c.resource(['下载']),
      ['Python 下载', 'Python download', 'Python official download', 'Python official documentation', 'Python GitHub'],
    ],
    ['k8s GitHub', c.resource(['github']), ['k8s GitHub', 'Kubernetes GitHub', 'Kubernetes official documentation']],
  ] as const)('%s', (query, classification, expected) => {
    expect(queriesOf(query, classification)).toEqual(expected)
  })

  it('puts the original first and gives every sub-query a kind and a reason', () => {
    const { queries } = expandQuery('Deno 最新进展', c.status(['最新进展']), { now })
    expect(queries[0]).toEqual({ query: 'Deno 最新进展', kind: 'original', reason: 'original query' })
    expect(queries[1]).toMatchObject({
      kind: 'translation',
      reason: expect.stringContaining('最新进展 → latest progress'),
    })
    for (const q of queries) expect(q.reason.length).toBeGreaterThan(0)
  })

  it('uses the injected clock for years and dates', () => {
    const later = () => new Date('2031-12-01T00:00:00Z')
    expect(
      expandQuery('latest Deno progress', c.status(['latest', 'progress']), { now: later }).queries[1]?.query,
    ).toBe('Deno latest 2031')
    expect(
      expandQuery('AI news', c.news(['news'], 'pm' as 'pw'), { now: later, maxQueries: 2 }).queries[1]?.query,
    ).toBe('AI news December 2031')
  })
})

describe('cap', () => {
  it('defaults to 3 sub-queries, the original included', () => {
    expect(expandQuery('RISC-V', c.exploratory(), { now }).queries.map((q) => q.query)).toEqual([
      'RISC-V',
      'RISC-V overview',
      'RISC-V ecosystem',
    ])
  })

  it.each([
    [1, 1],
    [2, 2],
    [0, 1],
    [-5, 1],
    [2.7, 2],
    [Number.NaN, 3],
    [100, 4],
  ])('maxQueries %s → %s queries', (maxQueries, count) => {
    expect(expandQuery('RISC-V', c.exploratory(), { now, maxQueries }).queries).toHaveLength(count)
  })
})

describe('synonyms', () => {
  it.each([
    ['k8s autoscaling', 'Kubernetes autoscaling'],
    ['JS closures', 'JavaScript closures'],
    ['TS generics', 'TypeScript generics'],
    ['Go generics', 'Golang generics'],
    ['Postgres indexes', 'PostgreSQL indexes'],
    ['Mongo aggregation', 'MongoDB aggregation'],
    ['tf serving', 'TensorFlow serving'],
    ['torch compile', 'PyTorch compile'],
    ['k8s部署', 'Kubernetes deploy'],
    ['JS and TS', 'JavaScript and TypeScript'],
  ])('%s → %s', (query, variant) => {
    expect(queriesOf(query, c.exploratory())[1]).toBe(variant)
  })

  it.each([
    ['Go to definition shortcut'],
    ['how to go to production'],
    ['node.js streams'],
    ['ts-node config'],
    ['gopher mascot'],
    ['JSON schema'],
    ['Kubernetes k8s cheat'],
  ])('leaves %s alone (token boundaries, case, context)', (query) => {
    const kinds = expandQuery(query, c.exploratory(), { now, maxQueries: 5 }).queries.map((q) => q.kind)
    expect(kinds).not.toContain('synonym')
  })
})

describe('English variants of Chinese queries', () => {
  it('translates with the glossary, longest term first', () => {
    expect(queriesOf('Rust 异步编程', c.exploratory())[1]).toBe('Rust async programming')
    expect(queriesOf('深入理解 Go 调度器', c.exploratory(['深入理解']))[1]).toBe('deep dive Golang scheduler')
  })

  it('gives no variant when a Chinese word is not in the glossary', () => {
    const kinds = expandQuery('饕餮 编程', c.exploratory(), { now, maxQueries: 5 }).queries.map((q) => q.kind)
    expect(kinds).not.toContain('translation')
  })

  it('leaves Japanese alone: kanji beside kana is not Chinese for the translation hook', async () => {
    const asked: string[] = []
    const translate = async (zh: string) => {
      asked.push(zh)
      return 'Rust performance and safety'
    }
    const { queries } = await expandQueryWithLlm('Rust の性能と安全性', c.exploratory(), {
      now,
      translate,
      maxQueries: 3,
    })
    expect(asked).toEqual([])
    expect(queries.map((q) => q.kind)).not.toContain('translation')
  })

  it('leaves Korean alone: hanja beside Hangul is not Chinese either (core cjkLanguage)', async () => {
    const asked: string[] = []
    const translate = async (zh: string) => {
      asked.push(zh)
      return 'constitution of Korea'
    }
    const { queries } = await expandQueryWithLlm('大韓民國 헌법', c.exploratory(), { now, translate, maxQueries: 3 })
    expect(asked).toEqual([])
    expect(queries.map((q) => q.kind)).not.toContain('translation')
  })
})

describe('robustness', () => {
  it('returns nothing for an empty or blank query', () => {
    expect(expandQuery('', c.exploratory()).queries).toEqual([])
    expect(expandQuery(' \n\t\u0000 ', c.exploratory()).queries).toEqual([])
  })

  it('keeps a very long query as the only sub-query', () => {
    const long = 'word '.repeat(2000)
    expect(expandQuery(long, c.exploratory()).queries).toEqual([
      { query: long.trim(), kind: 'original', reason: 'original query' },
    ])
  })

  it('survives a throwing or invalid clock', () => {
    expect(() =>
      expandQuery('AI news', c.news(['news'], 'pd'), {
        now: () => {
          throw new Error('clock')
        },
      }),
    ).not.toThrow()
    expect(() => expandQuery('AI news', c.news(['news'], 'pd'), { now: () => new Date(Number.NaN) })).not.toThrow()
  })

  it('de-duplicates ignoring case and spacing', () => {
    const qs = queriesOf('WebTransport  overview', c.exploratory(['overview']))
    expect(new Set(qs.map((q) => q.toLowerCase().replace(/\s+/g, ' '))).size).toBe(qs.length)
  })
})

describe('expandQueryWithLlm', () => {
  const translate = async (zh: string) => (zh === '饕餮 编程' ? 'Taotie programming' : 'unused')

  it('uses the translate hook when the glossary cannot cover the query', async () => {
    const { queries } = await expandQueryWithLlm('饕餮 编程', c.exploratory(), { now, translate, maxQueries: 3 })
    expect(queries).toEqual([
      { query: '饕餮 编程', kind: 'original', reason: 'original query' },
      { query: 'Taotie programming', kind: 'translation', reason: 'English variant (translation hook)' },
      { query: 'Taotie programming overview', kind: 'intent', reason: 'exploratory: overview; translated' },
    ])
  })

  it('does not call the hook when the glossary suffices', async () => {
    let calls = 0
    const counting = async () => {
      calls++
      return 'x'
    }
    await expandQueryWithLlm('Rust 异步编程', c.exploratory(), { now, translate: counting })
    await expandQueryWithLlm('RISC-V', c.exploratory(), { now, translate: counting })
    expect(calls).toBe(0)
  })

  it.each([
    ['rejects', async () => Promise.reject(new Error('model down'))],
    ['returns Chinese', async () => '还是中文'],
    ['returns an empty string', async () => ''],
    ['returns a non-string', async () => 42 as unknown as string],
  ])('falls back to the rules when the hook %s', async (_name, hook) => {
    const withHook = await expandQueryWithLlm('饕餮 编程', c.exploratory(), { now, translate: hook })
    expect(withHook).toEqual(expandQuery('饕餮 编程', c.exploratory(), { now }))
  })

  it('gives up on a hook that outlives timeoutMs', async () => {
    const never = (_zh: string, { signal }: { signal: AbortSignal }) =>
      new Promise<string>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)))
    const result = await expandQueryWithLlm('饕餮 编程', c.exploratory(), { now, translate: never, timeoutMs: 50 })
    expect(result.queries.map((q) => q.kind)).not.toContain('translation')
  })
})
