import type { ProviderName } from '@search-layer/core'
import type { ResultBatch } from '@search-layer/scoring'

/** A small deterministic PRNG (mulberry32) so every run merges the same data. */
function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const HOSTS = [
  'github.com',
  'docs.rs',
  'tokio.rs',
  'developer.mozilla.org',
  'stackoverflow.com',
  'medium.com',
  'dev.to',
  'blog.rust-lang.org',
  'kubernetes.io',
  'deno.com',
  'bun.sh',
  'nodejs.org',
  'react.dev',
  'postgresql.org',
  'news.ycombinator.com',
  'reddit.com',
  'zhihu.com',
  'juejin.cn',
  'cnblogs.com',
  'infoq.cn',
  'arxiv.org',
  'en.wikipedia.org',
  'zh.wikipedia.org',
  'learn.microsoft.com',
  'cloud.google.com',
  'aws.amazon.com',
  'example-blog.github.io',
  'fastapi.tiangolo.com',
  'docs.python.org',
  'go.dev',
  'theverge.com',
  'techcrunch.com',
]
const WORDS =
  'rust async runtime tokio deno bun node kubernetes operator tutorial guide release notes benchmark performance comparison postgres index vacuum react server components python asyncio webtransport risc-v 异步 编程 教程 性能 对比'.split(
    ' ',
  )
const PROVIDERS: ProviderName[] = ['brave', 'exa', 'tavily', 'grok']

/** Every date format providers really send (and some they should not). */
function dateIn(r: () => number): string | null {
  const y = 2018 + Math.floor(r() * 9)
  const m = 1 + Math.floor(r() * 12)
  const d = 1 + Math.floor(r() * 28)
  const mm = String(m).padStart(2, '0')
  const dd = String(d).padStart(2, '0')
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][m - 1]
  switch (Math.floor(r() * 11)) {
    case 0:
      return `${y}-${mm}-${dd}T08:30:00.000Z`
    case 1:
      return `${y}-${mm}-${dd}T08:30:00`
    case 2:
      return `${y}-${mm}-${dd}`
    case 3:
      return `Sun, ${dd} ${month} ${y} 08:00:00 GMT`
    case 4:
      return `${1 + Math.floor(r() * 30)} days ago`
    case 5:
      return `${1 + Math.floor(r() * 11)} 小时前`.replace(' ', '')
    case 6:
      return `${y}年${m}月${d}日`
    case 7:
      return `${month} ${d}, ${y}`
    case 8:
      return `${y}/${m}/${d}`
    case 9:
      return 'not a date'
    default:
      return null
  }
}

/** A URL variant the way one vendor shows it: www., trailing slash, tracking params, AMP/m., fragments. */
function variantOf(host: string, path: string, r: () => number): string {
  switch (Math.floor(r() * 8)) {
    case 0:
      return `https://www.${host}${path}/`
    case 1:
      return `https://${host}${path}?utm_source=brave&utm_medium=search`
    case 2:
      return `https://${host}${path}#overview`
    case 3:
      return `http://${host}${path}`
    case 4:
      return `https://m.${host}${path}`
    case 5:
      return `https://${host}/amp${path}`
    case 6:
      return `https://${host}${path}?ref=hn&id=${Math.floor(r() * 3)}`
    default:
      return `https://${host}${path}`
  }
}

/**
 * About `total` synthetic provider results in batches of 10–20 over 4 providers × 3 sub-queries, drawn from
 * a URL pool half the size (so pages repeat across providers and sub-queries, in different URL forms).
 */
export function syntheticBatches(total: number, seed = 42): { batches: ResultBatch[]; queries: string[] } {
  const r = rng(seed)
  const queries = ['rust async runtime', 'tokio tutorial', 'rust 异步 编程']
  const pool = Array.from({ length: Math.max(10, Math.floor(total / 2)) }, (_, i) => {
    const host = HOSTS[Math.floor(r() * HOSTS.length)]!
    const words = Array.from({ length: 3 + Math.floor(r() * 4) }, () => WORDS[Math.floor(r() * WORDS.length)]!)
    return {
      host,
      path: `/${words.slice(0, 2).join('-')}/${i}`,
      title: words.join(' '),
      snippet: `${words.join(' ')} — ${words.reverse().join(' ')}.`,
    }
  })
  const batches: ResultBatch[] = []
  let made = 0
  while (made < total) {
    const provider = PROVIDERS[batches.length % PROVIDERS.length]!
    const query = queries[Math.floor(batches.length / PROVIDERS.length) % queries.length]!
    const size = Math.min(total - made, 10 + Math.floor(r() * 11))
    const results = Array.from({ length: size }, (_, i) => {
      const page = pool[Math.floor(r() * pool.length)]!
      return {
        title: r() < 0.05 ? null : r() < 0.2 ? `${page.title} …` : page.title,
        url: variantOf(page.host, page.path, r),
        snippet: r() < 0.05 ? null : r() < 0.1 ? `  ${page.snippet}\n  more text ` : page.snippet,
        publishedAt: dateIn(r),
        provider,
        rank: i + 1,
        ...(provider === 'exa' || provider === 'tavily' ? { providerScore: Math.round(r() * 1000) / 1000 } : {}),
      }
    })
    batches.push({ query, provider, results })
    made += size
  }
  return { batches, queries }
}

/** Every URL in the batches, for canonicalUrl throughput. */
export function urlsOf(batches: readonly ResultBatch[]): string[] {
  return batches.flatMap((b) => b.results.map((x) => x.url))
}
