import { canonicalUrl, type ProviderName } from '@search-layer/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import tracking from '../../../references/tracking-params.json'
import { generalDateTime } from './date.js'
import { KeyOrder } from './_key-order.js'
import { hasTracking, isMirror } from './_merge-url.js'
import { type MergeableResult, type MergedResult, merge, type ResultBatch } from './merge.js'

// `merge` keeps occurrences in typed arrays, sorts groups in place, skips repeated values and reads dates, URLs
// and separators by char code. This is the same policy written the plain way (an object per occurrence, regexes,
// `Array#sort`, the general date parser): both must give byte-identical output for any input.

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const clean = (text: unknown) =>
  typeof text !== 'string' ? '' : isMessy(text) ? text.replace(/\s+/g, ' ').trim() : text.trim()

/** Merge's judgement of text that needs `\s+` collapsed, as a char loop: a lone U+1680, U+202F, U+205F or U+FEFF stays. */
function isMessy(text: string): boolean {
  let previous = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c > 32 && c < 127) {
      previous = false
      continue
    }
    if (c === 32) {
      if (previous) return true
      previous = true
      continue
    }
    if (
      (c >= 9 && c <= 13) ||
      c === 0xa0 ||
      (c >= 0x2000 && c <= 0x200a) ||
      c === 0x2028 ||
      c === 0x2029 ||
      c === 0x3000
    ) {
      return true
    }
    const space = c === 0x1680 || c === 0x202f || c === 0x205f || c === 0xfeff
    if (space && previous) return true
    previous = space
  }
  return false
}
const TRACKING_NAMES = new Set(tracking.names.map((n) => n.toLowerCase()))
const TRACKING_PREFIXES = tracking.prefixes.map((p) => p.toLowerCase())

interface Occurrence {
  result: MergeableResult
  url: string
  rank: number
  provider: number
  list: string
  query: string
  queryOrder: number
}

const byRank = (a: Occurrence, b: Occurrence) =>
  a.rank - b.rank || a.provider - b.provider || a.queryOrder - b.queryOrder

function urlOf(members: Occurrence[]): string {
  const key = (o: Occurrence) => [
    hasTrackingReference(o.url) ? 1 : 0,
    /^https:/i.test(o.url) ? 0 : 1,
    isMirrorReference(o.url) ? 1 : 0,
  ]
  let best = members[0]!
  for (const o of members.slice(1)) {
    const [a, b] = [key(o), key(best)]
    const order =
      a[0]! - b[0]! ||
      a[1]! - b[1]! ||
      a[2]! - b[2]! ||
      byRank(o, best) ||
      o.url.length - best.url.length ||
      cmp(o.url, best.url)
    if (order < 0) best = o
  }
  return best.url
}

function titleOf(members: Occurrence[], url: string): string {
  const candidates = members
    .map((o) => ({ o, text: clean(o.result.title) }))
    .filter(({ text }) => text !== '' && !/^https?:\/\//i.test(text) && text.toLowerCase() !== 'untitled')
    .map((c) => ({ ...c, truncated: c.text.endsWith('...') || c.text.endsWith('…') ? 1 : 0 }))
  candidates.sort(
    (a, b) => a.truncated - b.truncated || byRank(a.o, b.o) || b.text.length - a.text.length || cmp(a.text, b.text),
  )
  if (candidates.length > 0) return candidates[0]!.text
  try {
    const u = new URL(url)
    return `${u.hostname.replace(/^www\./, '')}${u.pathname === '/' ? '' : u.pathname}`
  } catch {
    return url
  }
}

function snippetOf(members: Occurrence[], title: string): string {
  const strip = (text: string) => {
    if (title === '' || text.length <= title.length || !text.startsWith(title)) return text
    const rest = text.slice(title.length)
    const separator = /^\s*[:：|–—-]\s*/.exec(rest)
    return separator ? rest.slice(separator[0].length) : text
  }
  const candidates = members
    .map((o) => ({ o, text: strip(clean(o.result.snippet)) }))
    .filter(
      ({ text }) =>
        text !== '' &&
        !(text.length === title.length && text.toLowerCase() === title.toLowerCase()) &&
        // Only lower-case "http" is tested for a bare URL, as merge always has.
        !(text.startsWith('http') && /^https?:\/\/\S+$/i.test(text)),
    )
  candidates.sort((a, b) => b.text.length - a.text.length || byRank(a.o, b.o) || cmp(a.text, b.text))
  return candidates[0]?.text ?? ''
}

function dateOf(members: Occurrence[], now: Date): string | null {
  const times = members
    .map((o) => generalDateTime(o.result.publishedAt, now))
    .filter((t): t is number => t !== null && t <= now.getTime() + 86_400_000 && t >= Date.UTC(1990, 0, 1))
  return times.length === 0 ? null : new Date(Math.min(...times)).toISOString()
}

function referenceMerge(
  batches: readonly ResultBatch[],
  k: number,
  now: Date,
  given: readonly string[],
): MergedResult[] {
  const lists = new Set<string>()
  const queries = new Set<string>()
  const raw: Omit<Occurrence, 'queryOrder'>[] = []
  // No `providers` option: sources follow the providers' names alphabetically.
  const providerOrder = [
    ...new Set(
      batches.flatMap((b) =>
        b !== null && typeof b === 'object' && typeof b.provider === 'string' ? [b.provider] : [],
      ),
    ),
  ].sort(cmp)
  for (const batch of batches) {
    if (batch === null || typeof batch !== 'object' || !Array.isArray(batch.results)) continue
    const query = typeof batch.query === 'string' ? batch.query : ''
    const list = `${batch.provider}\u0000${query}`
    lists.add(list)
    queries.add(query)
    batch.results.forEach((result, index) => {
      if (result === null || typeof result !== 'object') return
      const url = clean(result.url)
      if (url === '') return
      const rank =
        typeof result.rank === 'number' && Number.isInteger(result.rank) && result.rank >= 1 ? result.rank : index + 1
      const provider = providerOrder.indexOf(batch.provider)
      raw.push({ result, url, rank, provider: provider === -1 ? providerOrder.length : provider, list, query })
    })
  }
  const byText = [...queries].sort(cmp)
  const outputRank = (q: string) => (given.includes(q) ? given.indexOf(q) : Number.MAX_SAFE_INTEGER)
  const groups = new Map<string, Occurrence[]>()
  for (const o of raw) {
    const key = canonicalUrl(o.url)
    const members = groups.get(key) ?? []
    members.push({ ...o, queryOrder: byText.indexOf(o.query) })
    groups.set(key, members)
  }
  const norm = Math.max(1, lists.size) / (k + 1)
  const out = [...groups].map(([key, unsorted]) => {
    const members = [...unsorted].sort(byRank)
    let fusion = 0
    const voted = new Set<string>()
    for (const o of members) {
      if (voted.has(o.list)) continue
      voted.add(o.list)
      fusion += 1 / (k + o.rank)
    }
    fusion /= norm
    const ranks: Partial<Record<ProviderName, number>> = {}
    const providerScores: Partial<Record<ProviderName, number>> = {}
    const sources: ProviderName[] = []
    providerOrder.forEach((name, p) => {
      const mine = members.filter((o) => o.provider === p)
      if (mine.length === 0) return
      sources.push(name)
      ranks[name] = mine[0]!.rank
      const scores = mine
        .map((o) => o.result.providerScore)
        .filter((s): s is number => typeof s === 'number' && Number.isFinite(s))
      if (scores.length > 0) providerScores[name] = Math.max(...scores)
    })
    const url = urlOf(members)
    const title = titleOf(members, url)
    const merged: MergedResult = {
      title,
      url,
      canonicalUrl: key,
      snippet: snippetOf(members, title),
      publishedAt: dateOf(members, now),
      sources,
      source: sources.join(', '),
      ranks,
      providerScores,
      queries: [...new Set(members.map((o) => o.query))].sort((a, b) => outputRank(a) - outputRank(b) || cmp(a, b)),
      fusion: Math.round(Math.min(1, fusion) * 10_000) / 10_000,
    }
    return { merged, fusion, best: members[0]!.rank }
  })
  out.sort(
    (a, b) =>
      b.fusion - a.fusion ||
      b.merged.sources.length - a.merged.sources.length ||
      a.best - b.best ||
      cmp(a.merged.canonicalUrl, b.merged.canonicalUrl),
  )
  return out.map((o) => o.merged)
}

const now = new Date('2026-03-15T12:00:00.000Z')
const TITLES = [
  'Tokio',
  'Tokio tutorial',
  'Async Rust',
  'Async Rust...',
  'Async Rust …',
  '  Tokio \n tutorial ',
  'Untitled',
  'UNTITLED',
  'http://x.y/z',
  'HTTPS://tokio.rs',
  'https:/x',
  '',
  '…',
  '...',
]
const spacey = fc
  .array(
    fc.constantFrom(
      'a',
      'b',
      ' ',
      '\t',
      '\n',
      '\u00a0',
      '\u1680',
      '\u202f',
      '\u205f',
      '\ufeff',
      '\u3000',
      '\u2009',
      '\u2028',
      '\u0085',
      'é',
    ),
    { maxLength: 8 },
  )
  .map((chars) => chars.join(''))
const titleArb = fc.oneof(fc.constantFrom<unknown>(...TITLES, null, undefined, 42), fc.string({ maxLength: 6 }), spacey)
const snippetArb = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    undefined,
    '',
    'tokio',
    'https://tokio.rs/x',
    'HTTP://a b',
    'An async book',
    '  spaced \t out  ',
  ),
  fc
    .tuple(
      fc.constantFrom(...TITLES),
      fc.constantFrom(': ', ' — ', ' - ', '|', '\u3000：\u00a0', ' ~ ', '', ' ', ':'),
      fc.constantFrom('rest', '', 'Tokio', 'a longer rest of it'),
    )
    .map((parts) => parts.join('')),
  fc.string({ maxLength: 8 }),
  spacey,
)
const URLS = [
  'https://tokio.rs/tokio/tutorial',
  'http://www.tokio.rs/tokio/tutorial/',
  'https://m.tokio.rs/tokio/tutorial?utm_source=x',
  'https://tokio.rs/tokio/tutorial?ref=hn&id=1',
  'https://tokio.rs/tokio/tutorial/amp',
  'https://tokio.rs/tokio/tutorial#x',
  'HTTPS://TOKIO.RS/tokio/tutorial',
  'https://reddit.com/r/rust/comments/1?amp=1',
  'https://amp.reddit.com/r/rust/comments/1',
  '  https://reddit.com/r/rust/comments/1  ',
  'not a url',
  '',
]
const dateArb = fc.constantFrom<unknown>(
  null,
  undefined,
  '2025-01-01',
  '2025-01-01T10:00:00',
  '2024-06-01T10:00:00.123Z',
  '2024-06-01T10:00:00.000Z',
  '2030-01-01T00:00:00.000Z',
  '1985-01-01',
  'Sun, 05 Jan 2025 08:00:00 GMT',
  'Jan 5, 2025',
  '2025/1/5',
  '2025年1月5日',
  '3 days ago',
  '3天前',
  'junk',
  1_700_000_000,
  new Date('2025-02-03T04:05:06Z'),
)
const resultArb = fc.record(
  {
    title: titleArb,
    url: fc.oneof(
      { weight: 9, arbitrary: fc.constantFrom(...URLS) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 7) },
    ),
    snippet: snippetArb,
    publishedAt: dateArb,
    rank: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constantFrom<unknown>(0, 1.5, -1, null, 2 ** 40)),
    providerScore: fc.oneof(
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.constantFrom<unknown>(undefined, Number.NaN, Number.POSITIVE_INFINITY),
    ),
  },
  { requiredKeys: ['url'] },
) as fc.Arbitrary<MergeableResult>
const batchesArb = fc.array(
  fc.oneof(
    {
      weight: 12,
      arbitrary: fc.record({
        provider: fc.constantFrom<ProviderName | 'other'>(
          'brave',
          'exa',
          'tavily',
          'grok',
          'other',
        ) as fc.Arbitrary<ProviderName>,
        query: fc.constantFrom<unknown>('rust async', 'tokio tutorial', 'Tokio', '', 5) as fc.Arbitrary<string>,
        results: fc.array(
          fc.oneof(
            { weight: 20, arbitrary: resultArb },
            { weight: 1, arbitrary: fc.constant(null as unknown as MergeableResult) },
          ),
          { maxLength: 12 },
        ),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        null as unknown as ResultBatch,
        { provider: 'exa', query: 'q', results: null } as unknown as ResultBatch,
      ),
    },
  ),
  { maxLength: 8 },
)

describe('merge against a plain reference implementation', () => {
  it('gives byte-identical output for any batches', () => {
    fc.assert(
      fc.property(
        batchesArb,
        fc.constantFrom(60, 0, 1, 1000),
        fc.constantFrom<string[]>([], ['tokio tutorial'], ['Tokio', 'rust async']),
        (batches, k, queries) => {
          const expected = referenceMerge(batches, k, now, queries)
          expect(JSON.stringify(merge(batches, { now, k, queries }))).toBe(JSON.stringify(expected))
        },
      ),
      { numRuns: 1_500 },
    )
  })

  it('agrees on groups larger than the in-place insertion sort takes', () => {
    fc.assert(
      fc.property(
        fc.array(resultArb, { minLength: 30, maxLength: 90 }),
        fc.array(resultArb, { maxLength: 60 }),
        (a, b) => {
          const batches: ResultBatch[] = [
            { provider: 'brave', query: 'q', results: a },
            { provider: 'exa', query: 'q2', results: b },
          ]
          expect(JSON.stringify(merge(batches, { now }))).toBe(JSON.stringify(referenceMerge(batches, 60, now, [])))
        },
      ),
      { numRuns: 200 },
    )
  })

  it('reads batches from any iterable, once', () => {
    const batches: ResultBatch[] = [
      { provider: 'brave', query: 'q', results: [{ url: 'https://a.example/x', title: 'A' }] },
    ]
    function* once() {
      yield* batches
    }
    expect(merge(once() as unknown as ResultBatch[], { now })).toEqual(merge(batches, { now }))
  })
})

describe('merge helpers against the regexes they replaced', () => {
  const urlPiece = fc.constantFrom(
    'http',
    'HTTPS',
    'https',
    '://',
    ':/',
    'www.',
    'WWW.',
    'm.',
    'M.',
    'mobile.',
    'MOBILE.',
    'amp.',
    'Amp.',
    'mo.',
    'x.com',
    '/',
    '/amp',
    '/AMP',
    '/amp/',
    'amp',
    '?',
    '&',
    '#',
    '=',
    'amp=1',
    'utm_source=x',
    'UTM_Medium',
    'fbclid',
    'ref=hn',
    '\u212a',
    '\u0130',
    'K',
    'é',
    '异',
    'a',
    '1',
  )
  const url = fc.array(urlPiece, { maxLength: 10 }).map((pieces) => pieces.join(''))

  it('isMirror', () => {
    fc.assert(
      fc.property(url, (text) => {
        expect(isMirror(text)).toBe(isMirrorReference(text))
      }),
      { numRuns: 20_000 },
    )
  })

  it('hasTracking', () => {
    fc.assert(
      fc.property(url, (text) => {
        expect(hasTracking(text)).toBe(hasTrackingReference(text))
      }),
      { numRuns: 20_000 },
    )
  })

  it('KeyOrder compares like the strings do', () => {
    const key = fc.oneof(
      fc
        .array(
          fc.constantFrom('https://', 'a', 'b', 'ab', '/', '-', '0', '9', '\u00ff', '\u0100', '异', '\uffff', ''),
          { maxLength: 12 },
        )
        .map((p) => p.join('')),
      fc.string({ maxLength: 40 }),
    )
    fc.assert(
      fc.property(
        fc.uniqueArray(key, { minLength: 1, maxLength: 30 }),
        fc.constantFrom('', 'https://', 'https://example.com/', 'http://'),
        (list, prefix) => {
          const keys = list.map((k) => prefix + k)
          const order = new KeyOrder(2)
          for (const key of keys) order.add(key)
          // Up to 900 pairs a run: expect only reports a difference (each call costs more than the comparison).
          for (let a = 0; a < keys.length; a++) {
            for (let b = 0; b < keys.length; b++) {
              const expected = cmp(keys[a]!, keys[b]!)
              if (order.compare(a, b) !== expected)
                expect(order.compare(a, b), `${keys[a]} vs ${keys[b]}`).toBe(expected)
            }
          }
        },
      ),
      { numRuns: 1_000 },
    )
  })
})

function isMirrorReference(url: string): boolean {
  const lower = url.toLowerCase()
  if (/^[a-z]+:\/\/(?:www\.)?(?:m|mobile|amp)\./.test(lower)) return true
  return lower.includes('amp') && /\/amp\/?(?:[?#]|$)|[?&]amp(?:=|&|#|$)/.test(lower)
}

function hasTrackingReference(url: string): boolean {
  const query = url.indexOf('?')
  if (query === -1) return false
  for (const pair of url.slice(query + 1).split(/[&#]/)) {
    const eq = pair.indexOf('=')
    const name = (eq === -1 ? pair : pair.slice(0, eq)).toLowerCase()
    if (TRACKING_NAMES.has(name) || TRACKING_PREFIXES.some((p) => name.startsWith(p))) return true
  }
  return false
}
