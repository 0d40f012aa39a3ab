import { describe, expect, it } from 'vitest'
import { type ResultBatch, merge } from './merge.js'

const page = (url: string, rank = 1) => ({ title: 'T', url, snippet: 's', publishedAt: null, rank })
const batches: ResultBatch[] = [
  { query: 'q', provider: 'my-news', results: [page('https://a.example/x')] },
  { query: 'q', provider: 'tavily', results: [page('https://a.example/x')] },
  { query: 'q', provider: 'brave', results: [page('https://a.example/x'), page('https://b.example/', 2)] },
  { query: 'q', provider: 'grok', results: [page('https://a.example/x')] },
]

describe('merge: any provider id, in the registry order', () => {
  it('keeps every provider that found a page, plug-in ids included, in the given order', () => {
    const [first] = merge(batches, { providers: ['brave', 'tavily', 'grok'] })
    expect(first!.sources).toEqual(['brave', 'tavily', 'grok', 'my-news'])
    expect(first!.source).toBe('brave, tavily, grok, my-news')
    expect(first!.ranks).toEqual({ brave: 1, tavily: 1, grok: 1, 'my-news': 1 })
  })

  it('orders unlisted providers alphabetically, whatever order the batches arrive in', () => {
    const [first] = merge([...batches].reverse())
    expect(first!.source).toBe('brave, grok, my-news, tavily')
  })

  it('gives each order its own source text (the cache is per order)', () => {
    expect(merge(batches, { providers: ['tavily', 'brave'] })[0]!.source).toBe('tavily, brave, grok, my-news')
    expect(merge(batches, { providers: ['brave', 'tavily'] })[0]!.source).toBe('brave, tavily, grok, my-news')
  })
})
