import { canonicalUrl, PROVIDER_NAMES, type ProviderName } from '@search-layer/core'
import tracking from '../../../references/tracking-params.json'
import { parseDateTime } from './date.js'

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
  /** `PROVIDER_NAMES` index of `provider`, looked up once. */
  providerIndex: number
  query: string
  /** Which (provider, query) list it came from. */
  list: number
  rank: number
  /** The cleaned URL (never empty). */
  url: string
  result: MergeableResult
}

const PROVIDER_ORDER = new Map<string, number>(PROVIDER_NAMES.map((name, index) => [name, index]))
const PROVIDER_COUNT = PROVIDER_NAMES.length
const FUTURE_TOLERANCE_MS = 86_400_000
const MIN_RELIABLE = Date.UTC(1990, 0, 1)

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

const MESSY_SPACE = /\s\s|[\t\n\r\f\v\u00a0\u2000-\u200a\u2028\u2029\u3000]/
const SPACES = /\s+/g

function clean(text: unknown): string {
  if (typeof text !== 'string') return ''
  // Most provider text is already clean; skip the rewrite (and its garbage) when it is.
  return MESSY_SPACE.test(text) ? text.replace(SPACES, ' ').trim() : text.trim()
}

const TRACKING_NAMES = new Set(tracking.names.map((n) => n.toLowerCase()))
const TRACKING_PREFIXES = tracking.prefixes.map((p) => p.toLowerCase())
const PAIR_SEPARATOR = /[&#]/
const MIRROR_HOST = /^[a-z]+:\/\/(?:www\.)?(?:m|mobile|amp)\./
const AMP_PATH = /\/amp\/?(?:[?#]|$)|[?&]amp(?:=|&|#|$)/
const HTTPS = /^https:/i
const HTTP_URL = /^https?:\/\//i
const BARE_URL = /^https?:\/\/\S+$/i
const WWW = /^www\./

/** A variant carrying click-tracking parameters is a worse URL to show, even though it is the same page. */
function hasTracking(url: string): boolean {
  const query = url.indexOf('?')
  if (query === -1) return false
  for (const pair of url.slice(query + 1).split(PAIR_SEPARATOR)) {
    const eq = pair.indexOf('=')
    const name = (eq === -1 ? pair : pair.slice(0, eq)).toLowerCase()
    if (TRACKING_NAMES.has(name) || TRACKING_PREFIXES.some((p) => name.startsWith(p))) return true
  }
  return false
}

function isMirror(url: string): boolean {
  const lower = url.toLowerCase()
  if (MIRROR_HOST.test(lower)) return true
  return lower.includes('amp') && AMP_PATH.test(lower)
}

/** Order occurrences best first; the final tie-breaks make the choice independent of arrival order. */
function byRankThenProvider(a: Occurrence, b: Occurrence): number {
  return a.rank - b.rank || a.providerIndex - b.providerIndex || cmp(a.query, b.query)
}

function pickUrl(occurrences: Occurrence[]): string {
  if (occurrences.length === 1) return occurrences[0]!.url
  // One pass, best under: no tracking, https, not a mirror, best ranked, shortest, then by text.
  let winner = occurrences[0]!
  let winTracking = hasTracking(winner.url)
  let winHttps = winner.url.startsWith('https:') || HTTPS.test(winner.url)
  let winMirror = isMirror(winner.url)
  for (let i = 1; i < occurrences.length; i++) {
    const o = occurrences[i]!
    const text = o.url
    const tracking = hasTracking(text)
    const https = text.startsWith('https:') || HTTPS.test(text)
    const mirror = isMirror(text)
    const order =
      Number(tracking) - Number(winTracking) ||
      Number(winHttps) - Number(https) ||
      Number(mirror) - Number(winMirror) ||
      byRankThenProvider(o, winner) ||
      text.length - winner.url.length ||
      cmp(text, winner.url)
    if (order < 0) {
      winner = o
      winTracking = tracking
      winHttps = https
      winMirror = mirror
    }
  }
  return winner.url
}

function isTruncated(text: string): boolean {
  return text.endsWith('...') || text.endsWith('…')
}

function pickTitle(occurrences: Occurrence[], url: string): string {
  let winner: Occurrence | undefined
  let winText = ''
  let winTruncated = false
  for (const o of occurrences) {
    const text = clean(o.result.title)
    if (text === '' || HTTP_URL.test(text) || (text.length === 8 && text.toLowerCase() === 'untitled')) continue
    const truncated = isTruncated(text)
    if (
      winner === undefined ||
      (Number(truncated) - Number(winTruncated) ||
        byRankThenProvider(o, winner) ||
        winText.length - text.length ||
        cmp(text, winText)) < 0
    ) {
      winner = o
      winText = text
      winTruncated = truncated
    }
  }
  if (winner !== undefined) return winText
  // No usable title from any provider: show where the page is rather than nothing.
  try {
    const u = new URL(url)
    return `${u.hostname.replace(WWW, '')}${u.pathname === '/' ? '' : u.pathname}`
  } catch {
    return url
  }
}

function pickSnippet(occurrences: Occurrence[], title: string): string {
  let winner: Occurrence | undefined
  let winText = ''
  const lowerTitle = title.toLowerCase()
  for (const o of occurrences) {
    const text = clean(o.result.snippet)
    if (text === '') continue
    if (text.length === title.length && text.toLowerCase() === lowerTitle) continue
    if (text.startsWith('http') && BARE_URL.test(text)) continue
    if (
      winner === undefined ||
      (winText.length - text.length || byRankThenProvider(o, winner) || cmp(text, winText)) < 0
    ) {
      winner = o
      winText = text
    }
  }
  return winText
}

/** The reliable time of a raw `publishedAt`, or NaN; `dates` remembers each string seen in this merge. */
function reliableTime(value: unknown, now: Date, dates: Map<string, number>): number {
  if (typeof value === 'string') {
    const known = dates.get(value)
    if (known !== undefined) return known
  }
  let time = parseDateTime(value, now) ?? Number.NaN
  // Later dates are usually "updated" or crawl dates; future and pre-web dates are junk.
  if (time > now.getTime() + FUTURE_TOLERANCE_MS || time < MIN_RELIABLE) time = Number.NaN
  if (typeof value === 'string') dates.set(value, time)
  return time
}

function pickDate(occurrences: Occurrence[], now: Date, dates: Map<string, number>): string | null {
  // Earliest, because later dates are usually "updated" or crawl dates.
  let earliest = Number.NaN
  for (const o of occurrences) {
    const time = reliableTime(o.result.publishedAt, now, dates)
    if (time < earliest || (Number.isNaN(earliest) && !Number.isNaN(time))) earliest = time
  }
  // The ISO form parseDate gives (a canonical ISO input round-trips to itself), built once for the winner.
  return Number.isNaN(earliest) ? null : new Date(earliest).toISOString()
}

interface Ranked {
  result: MergedResult
  raw: number
  bestRank: number
}

function byFusion(a: Ranked, b: Ranked): number {
  return (
    b.raw - a.raw ||
    b.result.sources.length - a.result.sources.length ||
    a.bestRank - b.bestRank ||
    cmp(a.result.canonicalUrl, b.result.canonicalUrl)
  )
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
  // Providers and sub-queries return the same URL and date strings over and over: work each one out once.
  const keys = new Map<string, string>()
  const dates = new Map<string, number>()

  for (const batch of batches ?? []) {
    if (batch === null || typeof batch !== 'object' || !Array.isArray(batch.results)) continue
    const query = typeof batch.query === 'string' ? batch.query : ''
    const provider = batch.provider
    const providerIndex = PROVIDER_ORDER.get(provider) ?? PROVIDER_COUNT
    const listKey = `${provider}\u0000${query}`
    let list = lists.get(listKey)
    if (list === undefined) {
      list = lists.size
      lists.set(listKey, list)
    }
    const results = batch.results
    for (let index = 0; index < results.length; index++) {
      const result = results[index]
      if (result === null || typeof result !== 'object') continue
      const url = clean(result.url)
      if (url === '') continue
      const given = result.rank
      const rank = typeof given === 'number' && Number.isInteger(given) && given >= 1 ? given : index + 1
      let key = keys.get(url)
      if (key === undefined) {
        key = canonicalUrl(url)
        keys.set(url, key)
      }
      const occurrence: Occurrence = { provider, providerIndex, query, list, rank, url, result }
      const group = groups.get(key)
      if (group === undefined) groups.set(key, [occurrence])
      else group.push(occurrence)
    }
  }

  const listCount = Math.max(1, lists.size)
  const norm = listCount / (k + 1)
  const merged: Ranked[] = []
  // Per provider (by `PROVIDER_NAMES` index), reused for every group.
  const bestRanks: (number | undefined)[] = new Array(PROVIDER_COUNT)
  const bestScores: (number | undefined)[] = new Array(PROVIDER_COUNT)
  for (const [key, occurrences] of groups) {
    if (occurrences.length > 1) occurrences.sort(byRankThenProvider)
    bestRanks.fill(undefined)
    bestScores.fill(undefined)
    // Best first, so the first occurrence per list and per provider carries its best rank. One vote per
    // (provider, query) list: a list repeating a page does not count twice. listRanks comes out ascending, so
    // the float sum below has a fixed order: addition is not associative, and the output must not depend on
    // arrival order.
    let raw = 0
    const seenLists: number[] = []
    const queries: string[] = []
    for (const o of occurrences) {
      if (!seenLists.includes(o.list)) {
        seenLists.push(o.list)
        raw += 1 / (k + o.rank)
      }
      if (!queries.includes(o.query)) queries.push(o.query)
      const p = o.providerIndex
      if (p === PROVIDER_COUNT) continue
      if (bestRanks[p] === undefined) bestRanks[p] = o.rank
      const score = o.result.providerScore
      if (typeof score === 'number' && Number.isFinite(score) && !(score <= (bestScores[p] ?? Number.NEGATIVE_INFINITY))) {
        bestScores[p] = score
      }
    }
    raw /= norm
    const sources: ProviderName[] = []
    const ranks: Partial<Record<ProviderName, number>> = {}
    const providerScores: Partial<Record<ProviderName, number>> = {}
    for (let p = 0; p < PROVIDER_COUNT; p++) {
      const best = bestRanks[p]
      if (best === undefined) continue
      const name = PROVIDER_NAMES[p]!
      sources.push(name)
      ranks[name] = best
      const score = bestScores[p]
      if (score !== undefined) providerScores[name] = score
    }
    if (queries.length > 1) {
      queries.sort(
        (a, b) =>
          (queryOrder.get(a) ?? Number.MAX_SAFE_INTEGER) - (queryOrder.get(b) ?? Number.MAX_SAFE_INTEGER) || cmp(a, b),
      )
    }

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
        publishedAt: pickDate(occurrences, now, dates),
        sources,
        source: sources.join(', '),
        ranks,
        providerScores,
        queries,
        fusion: Math.round(Math.min(1, raw) * 10_000) / 10_000,
      },
    })
  }

  merged.sort(byFusion)
  const out: MergedResult[] = new Array(merged.length)
  for (let i = 0; i < merged.length; i++) out[i] = merged[i]!.result
  return out
}
