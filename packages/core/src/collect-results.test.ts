import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { collectResults } from './collect-results.js'

const Item = z.object({ url: z.string().nullish(), title: z.string().nullish() })
const toResult = (
  item: z.infer<typeof Item>,
  { url, hostname, rank }: { url: string; hostname: string; rank: number },
) => ({
  title: item.title ?? hostname,
  url,
  snippet: '',
  publishedAt: null,
  provider: 'exa' as const,
  rank,
})

describe('collectResults', () => {
  it('drops and counts entries without a usable URL or of the wrong shape, keeping vendor ranks', () => {
    const out = collectResults(
      [
        { url: 'https://a.com/x' },
        { url: 'javascript:alert(1)' },
        42,
        { url: null },
        { url: 'http://b.org', title: 'B' },
      ],
      Item,
      toResult,
    )
    expect(out.dropped).toBe(3)
    expect(out.results.map((r) => [r.url, r.rank, r.title])).toEqual([
      ['https://a.com/x', 1, 'a.com'],
      ['http://b.org/', 5, 'B'],
    ])
  })

  it('applies domain filters (not counted as dropped) and the limit', () => {
    const entries = [
      'https://docs.github.com/a',
      'https://gitlab.com/b',
      'https://github.com/c',
      'https://github.com/d',
    ].map((url) => ({ url }))
    const out = collectResults(entries, Item, toResult, { filters: { includeDomains: ['github.com'] }, limit: 2 })
    expect(out.results.map((r) => r.rank)).toEqual([1, 3])
    expect(out.dropped).toBe(0)
  })
})
