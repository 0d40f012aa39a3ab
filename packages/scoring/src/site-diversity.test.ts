import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { diversifySites, siteOf } from './index.js'

// Exa's recorded answer for "autonomous ai agents": kodexolabs.com holds 7 of the 10 places.
const recorded = JSON.parse(
  readFileSync(new URL('../test/fixtures/crewai--search-contents-text-2.json', import.meta.url), 'utf8'),
) as { results: { title: string; url: string }[] }
const ranked = recorded.results.map((r) => ({ title: r.title, url: r.url }))

function perSiteInTop(list: readonly { url: string }[], topN: number): Map<string, number> {
  const counts = new Map<string, number>()
  for (const r of list.slice(0, topN)) counts.set(siteOf(r.url), (counts.get(siteOf(r.url)) ?? 0) + 1)
  return counts
}

describe('diversifySites', () => {
  it('keeps one site to 3 of the top places and moves the rest down, not out', () => {
    expect(perSiteInTop(ranked, 10).get('kodexolabs.com')).toBe(7)
    const out = diversifySites(ranked, { query: 'autonomous ai agents', topN: 5 })
    expect(out).toHaveLength(ranked.length)
    expect(new Set(out.map((r) => r.url))).toEqual(new Set(ranked.map((r) => r.url)))
    expect(perSiteInTop(out, 5).get('kodexolabs.com')).toBe(3)
    // The next results from other sites come up; the fourth kodexolabs page moves below them.
    expect(out.slice(0, 5).map((r) => siteOf(r.url))).toEqual([
      'kodexolabs.com',
      'rolustech.com',
      'kodexolabs.com',
      'kodexolabs.com',
      'rolustech.com',
    ])
    const moved = out.filter((r) => r.demotedFrom !== undefined)
    expect(moved.map((r) => [r.demotedFrom, out.indexOf(r) + 1])).toEqual([
      [5, 6],
      [6, 7],
    ])
  })

  it('keeps the order within each site', () => {
    const out = diversifySites(ranked, { topN: 10 })
    const kodexo = (list: readonly { url: string }[]) =>
      list.filter((r) => siteOf(r.url) === 'kodexolabs.com').map((r) => r.url)
    expect(kodexo(out)).toEqual(kodexo(ranked))
  })

  it.each(['kodexolabs ai agents', 'kodexolabs.com agents'])('leaves a site the query names alone: %s', (query) => {
    expect(diversifySites(ranked, { query, topN: 5 })).toEqual(ranked)
  })

  it('moves nothing when the top is already diverse', () => {
    const diverse = ['a.com', 'b.org', 'c.net', 'a.com'].map((host, i) => ({ url: `https://${host}/${i}` }))
    expect(diversifySites(diverse)).toEqual(diverse)
  })

  it('counts subdomains as one site', () => {
    const list = ['docs', 'blog', 'www', 'api', 'news'].map((sub, i) => ({ url: `https://${sub}.example.co.uk/${i}` }))
    const other = { url: 'https://other.dev/' }
    const out = diversifySites([...list, other], { maxPerSite: 2, topN: 3 })
    expect(out.map((r) => r.url)).toEqual([list[0]!.url, list[1]!.url, other.url, ...list.slice(2).map((r) => r.url)])
  })

  it.each([
    [{ maxPerSite: 0 }, /maxPerSite/],
    [{ topN: 2.5 }, /topN/],
  ])('rejects %j with a clear error', (options, message) => {
    expect(() => diversifySites(ranked, options)).toThrow(message)
  })

  it('is a permutation for any input', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(4), fc.nat(1000)), { maxLength: 40 }), (rows) => {
        const list = rows.map(([site, n], i) => ({ url: `https://s${site}.example/${n}-${i}` }))
        const out = diversifySites(list, { maxPerSite: 2, topN: 5 })
        expect(out.map((r) => r.url).sort()).toEqual(list.map((r) => r.url).sort())
      }),
    )
  })
})
