import { describe, expect, it } from 'vitest'
import { NOW } from '../test/fixtures.js'
import { synthesize, toMarkdown } from './index.js'

const res = (url: string, title: string, snippet: string, sources: string[] = ['brave']) => ({
  title,
  url,
  snippet,
  sources,
  published_date: '2026-11-01T00:00:00Z',
})

describe('conflict detection', () => {
  it.each([
    {
      name: 'versions (en)',
      query: 'latest bun version',
      results: [
        res(
          'https://bun.sh/blog/bun-v1.3',
          'Bun 1.3 is here',
          'The latest version of Bun is 1.3, with a built-in SQL client.',
        ),
        res(
          'https://dev.to/x/bun-release',
          'Bun release roundup',
          'Bun 1.2 is the current stable release according to the changelog.',
        ),
        res('https://www.infoworld.com/article/bun', 'What is Bun?', 'Bun v1.3.2 adds faster installs.'),
      ],
      subject: 'Bun version',
      kind: 'version',
      claims: [
        { value: '1.3.2', results: [1, 3], sources: ['bun.sh', 'infoworld.com'] },
        { value: '1.2', results: [2], sources: ['dev.to'] },
      ],
    },
    {
      name: 'versions (zh)',
      query: 'Python 最新版本',
      results: [
        res('https://www.python.org/downloads/', 'Python 下载', 'Python 最新版本是 3.13,带来实验性的无 GIL 构建。'),
        res('https://zhuanlan.zhihu.com/p/1', 'Python 新特性', '目前 Python 的稳定版本为 3.12,推荐升级。'),
      ],
      subject: 'Python 版本',
      kind: 'version',
      claims: [
        { value: '3.13', results: [1], sources: ['python.org'] },
        { value: '3.12', results: [2], sources: ['zhihu.com'] },
      ],
    },
    {
      name: 'release dates (en)',
      query: 'when was GPT-5 released',
      results: [
        res(
          'https://openai.com/index/introducing-gpt-5/',
          'Introducing GPT-5',
          'GPT-5 was released on August 7, 2025 to all ChatGPT users.',
        ),
        res('https://www.theverge.com/gpt5', 'GPT-5 launch', 'GPT-5 launched on 2025-08-07 after months of testing.'),
        res('https://techblog.example.net/gpt5', 'GPT-5 arrives', 'GPT-5 was announced on 8 August 2025.'),
      ],
      subject: 'GPT-5 release date',
      kind: 'date',
      claims: [
        { value: '2025-08-07', results: [1, 2], sources: ['openai.com', 'theverge.com'] },
        { value: '2025-08-08', results: [3], sources: ['example.net'] },
      ],
    },
    {
      name: 'release dates (zh)',
      query: 'DeepSeek V3 发布时间',
      results: [
        res('https://www.36kr.com/p/1', 'DeepSeek V3 发布', 'DeepSeek 于 2024年12月26日 发布 V3 模型。'),
        res(
          'https://www.jiqizhixin.com/articles/2',
          'DeepSeek 新模型',
          'DeepSeek 在 2024 年 12 月 27 日正式发布了 V3。',
        ),
      ],
      subject: 'DeepSeek 发布日期',
      kind: 'date',
      claims: [
        { value: '2024-12-26', results: [1], sources: ['36kr.com'] },
        { value: '2024-12-27', results: [2], sources: ['jiqizhixin.com'] },
      ],
    },
    {
      name: 'numbers (en)',
      query: 'tokio github stars',
      results: [
        res('https://github.com/tokio-rs/tokio', 'tokio-rs/tokio', 'Tokio has 28,000 stars on the repository.'),
        res('https://www.libhunt.com/r/tokio', 'Tokio alternatives', 'Tokio has 28.1k stars and 2.7k forks.'),
        res('https://blog.example.org/tokio', 'Tokio popularity', 'Tokio has 31k stars, more than any other runtime.'),
      ],
      subject: 'Tokio stars',
      kind: 'number',
      claims: [
        { value: '28,000 stars', results: [1, 2], sources: ['github.com', 'libhunt.com'] },
        { value: '31k stars', results: [3], sources: ['example.org'] },
      ],
    },
    {
      name: 'numbers (zh)',
      query: 'Tokio 星标',
      results: [
        res('https://juejin.cn/post/1', 'Tokio 介绍', 'Tokio 拥有 2.8 万颗星,是最流行的运行时。'),
        res('https://www.oschina.net/p/tokio', 'Tokio 项目', 'Tokio 拥有 3.5 万颗星。'),
      ],
      subject: 'Tokio 星标数',
      kind: 'number',
      claims: [
        { value: '2.8 万颗星', results: [1], sources: ['juejin.cn'] },
        { value: '3.5 万颗星', results: [2], sources: ['oschina.net'] },
      ],
    },
  ])('finds differing $name', ({ query, results, subject, kind, claims }) => {
    const s = synthesize({ query, results }, { now: NOW })
    expect(s.conflicts).toEqual([{ subject, kind, claims }])
    expect(s.groups.every((g) => g.confidence === 'low')).toBe(true)
  })

  it.each([
    {
      name: 'compatible precision (1.2 vs 1.2.3)',
      results: [
        res('https://bun.sh/blog', 'Bun 1.2', 'Bun 1.2 is out.'),
        res('https://dev.to/x', 'Bun 1.2.3', 'Bun 1.2.3 fixes bugs.'),
      ],
    },
    {
      name: 'one site disagreeing with itself',
      results: [
        res('https://bun.sh/blog/a', 'Bun 1.2', 'Bun 1.2 is out.'),
        res('https://bun.sh/blog/b', 'Bun 1.3', 'Bun 1.3 is out.'),
      ],
    },
    {
      name: 'a result that compares versions itself',
      results: [
        res('https://bun.sh/blog', 'Bun 1.3 vs Bun 1.2', 'Bun 1.3 is faster than Bun 1.2.'),
        res('https://dev.to/x', 'Bun 1.3', 'Bun 1.3 ships SQL.'),
      ],
    },
    {
      name: 'numbers within 2%',
      results: [
        res('https://a.example.com/x', 'Tokio', 'Tokio has 28,000 stars.'),
        res('https://b.example.org/y', 'Tokio', 'Tokio has 28.3k stars.'),
      ],
    },
    {
      name: 'different subjects',
      results: [
        res('https://bun.sh/blog', 'Bun 1.3', 'Bun 1.3 is out.'),
        res('https://deno.com/blog', 'Deno 2.5', 'Deno 2.5 is out.'),
      ],
    },
    {
      name: 'bare years and numbers without units',
      results: [
        res('https://a.example.com/x', 'Rust in 2025', 'In 2025 Rust grew; 3 teams adopted it.'),
        res('https://b.example.org/y', 'Rust in 2024', 'In 2024 Rust grew; 5 teams adopted it.'),
      ],
    },
  ])('reports no conflict for $name', ({ results }) => {
    expect(synthesize({ query: 'bun', results }, { now: NOW }).conflicts).toEqual([])
  })

  it.each([
    ['en', 'latest bun version', 'Sources differ on Bun version: bun.sh says 1.3 [1], dev.to says 1.2 [2].'],
    ['zh', 'bun 最新版本', '存在不同说法(Bun 版本):bun.sh 认为 1.3 [1],dev.to 认为 1.2 [2]。'],
  ] as const)('states the disagreement in the output (%s)', (_lang, query, line) => {
    const s = synthesize(
      {
        query,
        results: [
          res('https://bun.sh/blog/bun-v1.3', 'Bun 1.3 is here', 'The latest version of Bun is 1.3.'),
          res('https://dev.to/x/bun', 'Bun roundup', 'Bun 1.2 is the current stable release.'),
        ],
      },
      { now: NOW },
    )
    const md = toMarkdown(s)
    expect(md).toContain(`> ${line}`)
    expect(s.groups[0]!.summary).toBe(line.replace(/ \[\d\]/g, ''))
  })
})
