import { InputError } from '@search-layer/core'
import { describe, expect, it } from 'vitest'
import table from '../../../references/authority-domains.json'
import { authorityParts, authorityScore, createAuthorityScorer } from './index.js'

describe('authorityScore', () => {
  it.each([
    ['a tier-1 domain', 'https://github.com/denoland/deno', 1],
    ['a subdomain of a tier-1 domain', 'https://gist.github.com/x', 1],
    ['w3.org behind www.', 'https://www.w3.org/TR/html52/', 1],
    ['bare w3.org', 'https://w3.org/TR/', 1],
    ['cloud.google.com, once listed twice, keeps tier 1', 'https://cloud.google.com/run/docs', 1],
    ['a language wiki', 'https://en.wikipedia.org/wiki/Rust', 1],
    // The URLs the keyless and vertical sources return (their domains were already in the table).
    ['the Chinese wiki (Wikipedia for Chinese queries)', 'https://zh.wikipedia.org/wiki/Rust', 1],
    ['a Stack Overflow question (Stack Exchange)', 'https://stackoverflow.com/questions/1/how-to', 1],
    ['a GitHub issue (GitHub search, status queries)', 'https://github.com/tokio-rs/tokio/issues/1', 1],
    ['the longest suffix wins', 'https://docs.aws.amazon.com/lambda/', 1],
    ['a tier-2 suffix', 'https://aws.amazon.com/blogs/', 0.8],
    ['a tier-2 domain', 'https://news.ycombinator.com/item?id=1', 0.8],
    ['a tier-3 domain', 'https://juejin.cn/post/1', 0.6],
    ['a listed blog beats the blog.* rule', 'https://blog.cloudflare.com/x', 0.8],
    ['docs.* pattern', 'https://docs.deno.com/runtime/', 0.9],
    ['developer.* pattern', 'https://developer.atlassian.com/', 0.9],
    ['*.github.io pattern', 'https://tokio-rs.github.io/tokio/', 0.7],
    ['*.readthedocs.io pattern', 'https://requests.readthedocs.io/en/latest/', 0.8],
    ['blog.* pattern', 'https://blog.example.com/post', 0.6],
    ['*.edu pattern', 'https://cs.stanford.edu/people', 0.8],
    ['*.edu under a country code', 'https://www.tsinghua.edu.cn/', 0.8],
    ['*.gov pattern', 'https://www.nist.gov/', 0.8],
    ['*.gov under a country code', 'https://www.gov.uk/guidance', 0.8],
    ['*.ac.uk pattern', 'https://www.ox.ac.uk/', 0.8],
    ['anything else', 'https://random-blog.example/post', 0.4],
    ['a look-alike domain', 'https://github.com.evil.example/x', 0.4],
    ['a domain that merely ends like a listed one', 'https://notgithub.com/', 0.4],
    ['an IP address', 'http://127.0.0.1:8080/', 0.4],
    ['a non-URL', 'not a url', 0.4],
    ['an empty string', '', 0.4],
  ])('%s', (_name, url, expected) => {
    expect(authorityScore(url)).toBe(expected)
  })

  it.each([
    ['boosts a matching domain by 0.2', 'https://dev.to/a', ['dev.to'], 1],
    ['boosts a subdomain', 'https://www.freecodecamp.org/news/x', ['freecodecamp.org'], 0.8],
    ['normalises the boost list like the table', 'https://realpython.com/x', ['HTTPS://WWW.RealPython.com/'], 0.8],
    ['caps at 1', 'https://github.com/x', ['github.com'], 1],
    ['ignores non-matching domains', 'https://example.com/x', ['dev.to', ''], 0.4],
    ['does not boost a look-alike', 'https://evil-dev.to/x', ['dev.to'], 0.4],
  ])('%s', (_name, url, boost, expected) => {
    expect(authorityScore(url, { domainBoost: boost })).toBe(expected)
  })

  it('reports the boost separately', () => {
    expect(authorityParts('https://example.com/', { domainBoost: ['example.com'] })).toEqual({
      base: 0.4,
      boost: 0.2,
      score: 0.6,
    })
  })
})

describe('references/authority-domains.json', () => {
  const tiers = Object.entries(table as Record<string, unknown>).flatMap(([name, value]) =>
    typeof value === 'object' && value !== null && 'domains' in value
      ? [[name, value as { score: number; domains: string[] }] as const]
      : [],
  )

  it('lists every domain once, across all tiers', () => {
    const all = tiers.flatMap(([, tier]) => tier.domains)
    const duplicates = all.filter((d, i) => all.indexOf(d) !== i)
    expect(duplicates).toEqual([])
  })

  it('lists domains without www. and in lower case', () => {
    for (const [, tier] of tiers) {
      for (const domain of tier.domains) {
        expect(domain).toBe(domain.toLowerCase())
        expect(domain.startsWith('www.')).toBe(false)
      }
    }
  })
})

describe('createAuthorityScorer', () => {
  it('keeps the highest score for a domain listed in two tiers', () => {
    const score = createAuthorityScorer({
      tier1: { score: 1, domains: ['cloud.google.com'] },
      tier2: { score: 0.8, domains: ['cloud.google.com', 'www.example.com'] },
      tier4_default_score: 0.3,
    })
    expect(score('https://cloud.google.com/x')).toBe(1)
    expect(score('https://example.com/')).toBe(0.8)
    expect(score('https://other.example/')).toBe(0.3)
  })

  it.each([
    ['a score above 1', { t: { score: 2, domains: ['a.com'] } }],
    ['non-string domains', { t: { score: 0.5, domains: [1] } }],
    ['a bad default', { tier4_default_score: -1 }],
    ['a rule without a score', { pattern_rules: [{ pattern: 'docs.*' }] }],
    ['an unsupported pattern', { pattern_rules: [{ pattern: 'docs', score: 0.5 }] }],
  ])('rejects %s with InputError', (_name, bad) => {
    expect(() => createAuthorityScorer(bad as never)).toThrow(InputError)
  })
})
