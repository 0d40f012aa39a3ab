import { canonicalUrl, PROVIDER_NAMES, type ProviderName } from '@search-layer/core'
import tracking from '../../../references/tracking-params.json'
import { parseDate } from './date.js'

/** One provider result as merge reads it; tolerant of the null fields providers really send. */
export interface MergeableResult {
  title?: string | null
  url: string
  snippet?: string | null
  publishedAt?: string | null
  provider?: ProviderName
  rank?: number
  providerScore?: number
  extra?: Record<string, unknown>
}

/** What one provider returned for one (sub-)query. */
export interface ResultBatch {
  query: string
  provider: ProviderName
  results: readonly MergeableResult[]
}

export interface MergeOptions {
  /** Reciprocal-rank-fusion constant; larger flattens the advantage of the top ranks. Default 60. */
  k?: number
  /** The clock: dates more than a day after it are not reliable. Default: now. */
  now?: Date
  /** Order for `MergedResult.queries` (the user's query first); others follow alphabetically. */
  queries?: readonly string[]
}

/** One page, after folding every provider's and sub-query's copy of it together. */
export interface MergedResult {
  title: string
  /** The original URL of the best variant (no tracking parameters, https, not mobile/AMP, best ranked), for display. */
  url: string
  canonicalUrl: string
  snippet: string
  publishedAt: string | null
  /** Providers that found it, in `PROVIDER_NAMES` order. */
  sources: ProviderName[]
  /** `sources` joined with ", ", as the original skill printed it. */
  source: string
  /** Best rank per provider. */
  ranks: Partial<Record<ProviderName, number>>
  /** Best provider score per provider, when providers send one. */
  providerScores: Partial<Record<ProviderName, number>>
  /** The (sub-)queries that found it. */
  queries: string[]
  /** Normalised reciprocal rank fusion in [0,1]: 1 = ranked first in every list. */
  fusion: number
}

interface Occurrence {
  provider: ProviderName
  query: string
  /** Which (provider, query) list it came from. */
  list: number
  rank: number
  result: MergeableResult
}

const PROVIDER_ORDER = new Map<string, number>(PROVIDER_NAMES.map((name, index) => [name, index]))
const FUTURE_TOLERANCE_MS = 86_400_000
const MIN_RELIABLE = Date.UTC(1990, 0, 1)

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

const MESSY_SPACE = /\s\s|[\t\n\r\f\v\u00a0\u2000-\u200a\u2028\u2029\u3000]/

function clean(text: unknown): string {
  if (typeof text !== 'string') return ''
  // Most provider text is already clean; skip the rewrite (and its garbage) when it is.
  return MESSY_SPACE.test(text) ? text.replace(/\s+/g, ' ').trim() : text.trim()
}

function providerIndex(provider: ProviderName): number {
  return PROVIDER_ORDER.get(provider) ?? PROVIDER_NAMES.length
}

const TRACKING_NAMES = new Set(tracking.names.map((n) => n.toLowerCase()))
const TRACKING_PREFIXES = tracking.prefixes.map((p) => p.toLowerCase())

/** A variant carrying click-tracking parameters is a worse URL to show, even though it is the same page. */
function hasTracking(url: string): boolean {
  const query = url.indexOf('?')
  if (query === -1) return false
  for (const pair of url.slice(query + 1).split(/[&#]/)) {
    const name = (pair.split('=', 1)[0] ?? '').toLowerCase()
    if (TRACKING_NAMES.has(name) || TRACKING_PREFIXES.some((p) => name.startsWith(p))) return true
  }
  return false
}

function isMirror(url: string): boolean {
  const lower = url.toLowerCase()
  if (/^[a-z]+:\/\/(?:www\.)?(?:m|mobile|amp)\./.test(lower)) return true
  return lower.includes('amp') && /\/amp\/?(?:[?#]|$)|[?&]amp(?:=|&|#|$)/.test(lower)
}

/** Order occurrences best first; the final tie-breaks make the choice independent of arrival order. */
function byRankThenProvider(a: Occurrence, b: Occurrence): number {
  return a.rank - b.rank || providerIndex(a.provider) - providerIndex(b.provider) || cmp(a.query, b.query)
}

/** The best item under `better` in one pass: no sorting, no intermediate arrays. */
function best<T>(items: readonly T[], better: (a: T, b: T) => number): T | undefined {
  let winner: T | undefined
  for (const item of items) if (winner === undefined || better(item, winner) < 0) winner = item
  return winner
}

interface Candidate {
  o: Occurrence
  text: string
}

function candidates(occurrences: Occurrence[], field: 'url' | 'title' | 'snippet'): Candidate[] {
  const out: Candidate[] = []
  for (const o of occurrences) {
    const text = clean(o.result[field])
    if (text !== '') out.push({ o, text })
  }
  return out
}

function pickUrl(occurrences: Occurrence[]): string {
  if (occurrences.length === 1) return clean(occurrences[0]!.result.url)
  const winner = best(
    candidates(occurrences, 'url').map((c) => ({
      o: c.o,
      text: c.text,
      https: c.text.startsWith('https:') || /^https:/i.test(c.text),
      mirror: isMirror(c.text),
      tracking: hasTracking(c.text),
    })),
    (a, b) =>
      Number(a.tracking) - Number(b.tracking) ||
      Number(b.https) - Number(a.https) ||
      Number(a.mirror) - Number(b.mirror) ||
      byRankThenProvider(a.o, b.o) ||
      a.text.length - b.text.length ||
      cmp(a.text, b.text),
  )
  return winner?.text ?? ''
}

function isTruncated(text: string): boolean {
  return text.endsWith('...') || text.endsWith('…')
}

function pickTitle(occurrences: Occurrence[], url: string): string {
  const usable = candidates(occurrences, 'title').filter(
    (t) => !/^https?:\/\//i.test(t.text) && !(t.text.length === 8 && t.text.toLowerCase() === 'untitled'),
  )
  const winner = best(
    usable,
    (a, b) =>
      Number(isTruncated(a.text)) - Number(isTruncated(b.text)) ||
      byRankThenProvider(a.o, b.o) ||
      b.text.length - a.text.length ||
      cmp(a.text, b.text),
  )
  if (winner !== undefined) return winner.text
  // No usable title from any provider: show where the page is rather than nothing.
  try {
    const u = new URL(url)
    return `${u.hostname.replace(/^www\./, '')}${u.pathname === '/' ? '' : u.pathname}`
  } catch {
    return url
  }
}

function pickSnippet(occurrences: Occurrence[], title: string): string {
  const sameAsTitle = (text: string) => text.length === title.length && text.toLowerCase() === title.toLowerCase()
  const usable = candidates(occurrences, 'snippet').filter(
    (s) => !sameAsTitle(s.text) && !(s.text.startsWith('http') && /^https?:\/\/\S+$/i.test(s.text)),
  )
  const winner = best(usable, (a, b) => b.text.length - a.text.length || byRankThenProvider(a.o, b.o) || cmp(a.text, b.text))
  return winner?.text ?? ''
}

function pickDate(occurrences: Occurrence[], now: Date): string | null {
  let earliest: string | null = null
  for (const o of occurrences) {
    const iso = parseDate(o.result.publishedAt, { now })
    if (iso === null) continue
    const time = Date.parse(iso)
    // Earliest, because later dates are usually "updated" or crawl dates; future and pre-web dates are junk.
    if (time > now.getTime() + FUTURE_TOLERANCE_MS || time < MIN_RELIABLE) continue
    if (earliest === null || iso < earliest) earliest = iso
  }
  return earliest
}

/**
 * Fold results from every provider and sub-query into one list, grouped by `canonicalUrl`, ordered by normalised
 * reciprocal rank fusion (Σ 1/(k+rank) over the lists that found a page). The same batches in any order give
 * the same output. Never throws.
 */
export function merge(batches: readonly ResultBatch[], options: MergeOptions = {}): MergedResult[] {
  const k = options.k !== undefined && Number.isFinite(options.k) && options.k >= 0 ? options.k : 60
  const now = options.now ?? new Date()
  const queryOrder = new Map((options.queries ?? []).map((q, index) => [q, index]))
  const groups = new Map<string, Occurrence[]>()
  const lists = new Map<string, number>()
  // Providers and sub-queries return the same URL strings over and over: canonicalise each string once.
  const keys = new Map<string, string>()

  for (const batch of batches ?? []) {
    if (batch === null || typeof batch !== 'object' || !Array.isArray(batch.results)) continue
    const query = typeof batch.query === 'string' ? batch.query : ''
    const listKey = `${batch.provider}\u0000${query}`
    let list = lists.get(listKey)
    if (list === undefined) {
      list = lists.size
      lists.set(listKey, list)
    }
    for (let index = 0; index < batch.results.length; index++) {
      const result = batch.results[index]
      if (result === null || typeof result !== 'object') continue
      const url = clean(result.url)
      if (url === '') continue
      const rank =
        typeof result.rank === 'number' && Number.isInteger(result.rank) && result.rank >= 1 ? result.rank : index + 1
      let key = keys.get(url)
      if (key === undefined) {
        key = canonicalUrl(url)
        keys.set(url, key)
      }
      const occurrence: Occurrence = { provider: batch.provider, query, list, rank, result }
      const group = groups.get(key)
      if (group === undefined) groups.set(key, [occurrence])
      else group.push(occurrence)
    }
  }

  const listCount = Math.max(1, lists.size)
  const merged: { result: MergedResult; raw: number; bestRank: number }[] = []
  for (const [key, occurrences] of groups) {
    if (occurrences.length > 1) occurrences.sort(byRankThenProvider)
    // Best first, so the first occurrence per list and per provider carries its best rank. One vote per
    // (provider, query) list: a list repeating a page does not count twice.
    const seenLists: number[] = []
    const listRanks: number[] = []
    const ranks: Partial<Record<ProviderName, number>> = {}
    const scores: Partial<Record<ProviderName, number>> = {}
    const queries: string[] = []
    for (const o of occurrences) {
      if (!seenLists.includes(o.list)) {
        seenLists.push(o.list)
        listRanks.push(o.rank)
      }
      if (!queries.includes(o.query)) queries.push(o.query)
      if (ranks[o.provider] === undefined) ranks[o.provider] = o.rank
      const score = o.result.providerScore
      if (typeof score === 'number' && Number.isFinite(score) && !(score <= (scores[o.provider] ?? Number.NEGATIVE_INFINITY))) {
        scores[o.provider] = score
      }
    }
    const sources = PROVIDER_NAMES.filter((p) => ranks[p] !== undefined)
    const orderedRanks: Partial<Record<ProviderName, number>> = {}
    const orderedScores: Partial<Record<ProviderName, number>> = {}
    for (const p of sources) {
      orderedRanks[p] = ranks[p]
      if (scores[p] !== undefined) orderedScores[p] = scores[p]
    }
    // listRanks is already ascending (occurrences are sorted by rank), so the float sum has a fixed order:
    // addition is not associative, and the output must not depend on arrival order.
    let raw = 0
    for (const r of listRanks) raw += 1 / (k + r)
    raw /= listCount / (k + 1)

    const url = pickUrl(occurrences)
    const title = pickTitle(occurrences, url)
    merged.push({
      raw,
      bestRank: occurrences[0]!.rank,
      result: {
        title,
        url,
        canonicalUrl: key,
        snippet: pickSnippet(occurrences, title),
        publishedAt: pickDate(occurrences, now),
        sources,
        source: sources.join(', '),
        ranks: orderedRanks,
        providerScores: orderedScores,
        queries: queries.sort(
          (a, b) =>
            (queryOrder.get(a) ?? Number.MAX_SAFE_INTEGER) - (queryOrder.get(b) ?? Number.MAX_SAFE_INTEGER) || cmp(a, b),
        ),
        fusion: Math.round(Math.min(1, raw) * 10_000) / 10_000,
      },
    })
  }

  merged.sort(
    (a, b) =>
      b.raw - a.raw ||
      b.result.sources.length - a.result.sources.length ||
      a.bestRank - b.bestRank ||
      cmp(a.result.canonicalUrl, b.result.canonicalUrl),
  )
  return merged.map((m) => m.result)
}
