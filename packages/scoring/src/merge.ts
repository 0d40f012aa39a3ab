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

const PROVIDER_ORDER = new Map<string, number>(PROVIDER_NAMES.map((name, index) => [name, index]))
const PROVIDER_COUNT = PROVIDER_NAMES.length
const FUTURE_TOLERANCE_MS = 86_400_000
const MIN_RELIABLE = Date.UTC(1990, 0, 1)

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

const SPACES = /\s+/g

function clean(text: unknown): string {
  if (typeof text !== 'string') return ''
  // Most provider text is already clean; skip the rewrite (and its garbage) when it is.
  return isMessy(text) ? text.replace(SPACES, ' ').trim() : text.trim()
}

/** True where `\s+` has something to collapse (two whitespace in a row, or any but a plain space): a char loop, no regex. */
function isMessy(text: string): boolean {
  let previous = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    // Printable ASCII but the space: by far the most common case, never whitespace.
    if (c > 32 && c < 127) {
      previous = false
      continue
    }
    if (c === 32) {
      if (previous) return true
      previous = true
      continue
    }
    if ((c >= 9 && c <= 13) || c === 0xa0 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x3000) {
      return true
    }
    // The rest of `\s`: whitespace that only counts when doubled.
    const space = c === 0x1680 || c === 0x202f || c === 0x205f || c === 0xfeff
    if (space && previous) return true
    previous = space
  }
  return false
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


/**
 * Everything merge knows about one occurrence (one provider result), in parallel arrays indexed by occurrence
 * number: 10,000 results would otherwise be 10,000 short-lived objects, and their garbage collection.
 */
interface Occurrences {
  rank: number[]
  provider: number[]
  /** Position of the query in byte order: compares like the query strings themselves. */
  queryOrder: number[]
  query: number[]
  list: number[]
  /** Index into `Urls`. */
  url: number[]
  result: MergeableResult[]
}

/** Distinct cleaned URL strings of one merge; the properties pickUrl compares are worked out once per string. */
interface Urls {
  text: string[]
  group: number[]
  /** Bit 1 tracking, 2 https, 4 mirror; -1 until first needed. */
  flags: number[]
}

const TRACKING_FLAG = 1
const HTTPS_FLAG = 2
const MIRROR_FLAG = 4

function urlFlags(urls: Urls, id: number): number {
  let flags = urls.flags[id]!
  if (flags === -1) {
    const text = urls.text[id]!
    flags =
      (hasTracking(text) ? TRACKING_FLAG : 0) |
      (text.startsWith('https:') || HTTPS.test(text) ? HTTPS_FLAG : 0) |
      (isMirror(text) ? MIRROR_FLAG : 0)
    urls.flags[id] = flags
  }
  return flags
}

/** Order occurrences best first; the final tie-breaks make the choice independent of arrival order. */
function byRankThenProvider(occ: Occurrences, a: number, b: number): number {
  return occ.rank[a]! - occ.rank[b]! || occ.provider[a]! - occ.provider[b]! || occ.queryOrder[a]! - occ.queryOrder[b]!
}

function pickUrl(occ: Occurrences, urls: Urls, members: number[], count: number): string {
  let winner = members[0]!
  let winId = occ.url[winner]!
  if (count === 1) return urls.text[winId]!
  // One pass, best under: no tracking, https, not a mirror, best ranked, shortest, then by text.
  let winFlags = urlFlags(urls, winId)
  for (let i = 1; i < count; i++) {
    const o = members[i]!
    const id = occ.url[o]!
    const flags = id === winId ? winFlags : urlFlags(urls, id)
    const text = urls.text[id]!
    const winText = urls.text[winId]!
    const order =
      (flags & TRACKING_FLAG) - (winFlags & TRACKING_FLAG) ||
      (winFlags & HTTPS_FLAG) - (flags & HTTPS_FLAG) ||
      (flags & MIRROR_FLAG) - (winFlags & MIRROR_FLAG) ||
      byRankThenProvider(occ, o, winner) ||
      text.length - winText.length ||
      cmp(text, winText)
    if (order < 0) {
      winner = o
      winId = id
      winFlags = flags
    }
  }
  return urls.text[winId]!
}

function isTruncated(text: string): boolean {
  return text.endsWith('...') || text.endsWith('…')
}

function pickTitle(occ: Occurrences, members: number[], count: number, url: string): string {
  let winner = -1
  let winText = ''
  let winTruncated = false
  for (let i = 0; i < count; i++) {
    const o = members[i]!
    const text = clean(occ.result[o]!.title)
    if (text === '' || HTTP_URL.test(text) || (text.length === 8 && text.toLowerCase() === 'untitled')) continue
    const truncated = isTruncated(text)
    if (
      winner === -1 ||
      (Number(truncated) - Number(winTruncated) ||
        byRankThenProvider(occ, o, winner) ||
        winText.length - text.length ||
        cmp(text, winText)) < 0
    ) {
      winner = o
      winText = text
      winTruncated = truncated
    }
  }
  if (winner !== -1) return winText
  // No usable title from any provider: show where the page is rather than nothing.
  try {
    const u = new URL(url)
    return `${u.hostname.replace(WWW, '')}${u.pathname === '/' ? '' : u.pathname}`
  } catch {
    return url
  }
}

const TITLE_SEPARATOR = /^\s*[:：|–—-]\s*/

// Answer-derived snippets often read "Title: what the page says"; the title is shown anyway, and repeating it
// must not make a snippet win "longest".
function withoutTitlePrefix(text: string, title: string): string {
  if (title.length === 0 || text.length <= title.length || !text.startsWith(title)) return text
  const rest = text.slice(title.length)
  const separator = TITLE_SEPARATOR.exec(rest)
  return separator ? rest.slice(separator[0].length) : text
}

function pickSnippet(occ: Occurrences, members: number[], count: number, title: string): string {
  let winner = -1
  let winText = ''
  let lowerTitle: string | undefined
  for (let i = 0; i < count; i++) {
    const o = members[i]!
    const text = withoutTitlePrefix(clean(occ.result[o]!.snippet), title)
    if (text === '') continue
    if (text.length === title.length) {
      // Lower-cased only when a snippet could repeat the title: most never have its exact length.
      lowerTitle ??= title.toLowerCase()
      if (text.toLowerCase() === lowerTitle) continue
    }
    if (text.startsWith('http') && BARE_URL.test(text)) continue
    if (winner === -1 || (winText.length - text.length || byRankThenProvider(occ, o, winner) || cmp(text, winText)) < 0) {
      winner = o
      winText = text
    }
  }
  return winText
}

/** Distinct raw `publishedAt` strings of one merge: each is parsed once, and turned into ISO at most once. */
interface Dates {
  index: Map<string, number>
  time: number[]
  iso: (string | undefined)[]
}

/** The reliable time of a raw `publishedAt`, or NaN. */
function reliableTime(value: unknown, now: Date): number {
  let time = parseDateTime(value, now) ?? Number.NaN
  // Later dates are usually "updated" or crawl dates; future and pre-web dates are junk.
  if (time > now.getTime() + FUTURE_TOLERANCE_MS || time < MIN_RELIABLE) time = Number.NaN
  return time
}

function pickDate(occ: Occurrences, members: number[], count: number, now: Date, dates: Dates): string | null {
  // Earliest, because later dates are usually "updated" or crawl dates.
  let earliest = Number.NaN
  let from = -1
  for (let i = 0; i < count; i++) {
    const value = occ.result[members[i]!]!.publishedAt
    let time: number
    let id = -1
    if (typeof value === 'string') {
      const known = dates.index.get(value)
      if (known === undefined) {
        id = dates.time.length
        time = reliableTime(value, now)
        dates.index.set(value, id)
        dates.time.push(time)
        dates.iso.push(undefined)
      } else {
        id = known
        time = dates.time[known]!
      }
    } else {
      time = reliableTime(value, now)
    }
    if (time < earliest || (Number.isNaN(earliest) && !Number.isNaN(time))) {
      earliest = time
      from = id
    }
  }
  if (Number.isNaN(earliest)) return null
  // The ISO form parseDate gives (a canonical ISO input round-trips to itself), built once per distinct string.
  if (from === -1) return new Date(earliest).toISOString()
  let iso = dates.iso[from]
  if (iso === undefined) {
    iso = new Date(earliest).toISOString()
    dates.iso[from] = iso
  }
  return iso
}

/**
 * Fold results from every provider and sub-query into one list, grouped by `canonicalUrl`, ordered by normalised
 * reciprocal rank fusion (Σ 1/(k+rank) over the lists that found a page). The same batches in any order give
 * the same output. Never throws.
 */
export function merge(batches: readonly ResultBatch[], options: MergeOptions = {}): MergedResult[] {
  const k = options.k !== undefined && Number.isFinite(options.k) && options.k >= 0 ? options.k : 60
  const now = options.now ?? new Date()
  const lists = new Map<string, number>()
  const queryIds = new Map<string, number>()
  const queryTexts: string[] = []
  const occ: Occurrences = { rank: [], provider: [], queryOrder: [], query: [], list: [], url: [], result: [] }
  // Providers and sub-queries return the same URL strings over and over: canonicalise each one once, and map
  // it straight to its group.
  const urlIds = new Map<string, number>()
  const urls: Urls = { text: [], group: [], flags: [] }
  const groupIds = new Map<string, number>()
  const groupKeys: string[] = []
  const groupSize: number[] = []

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
    let queryId = queryIds.get(query)
    if (queryId === undefined) {
      queryId = queryTexts.length
      queryIds.set(query, queryId)
      queryTexts.push(query)
    }
    const results = batch.results
    for (let index = 0; index < results.length; index++) {
      const result = results[index]
      if (result === null || typeof result !== 'object') continue
      const url = clean(result.url)
      if (url === '') continue
      const given = result.rank
      const rank = typeof given === 'number' && Number.isInteger(given) && given >= 1 ? given : index + 1
      let urlId = urlIds.get(url)
      if (urlId === undefined) {
        const key = canonicalUrl(url)
        let group = groupIds.get(key)
        if (group === undefined) {
          group = groupKeys.length
          groupIds.set(key, group)
          groupKeys.push(key)
          groupSize.push(0)
        }
        urlId = urls.text.length
        urlIds.set(url, urlId)
        urls.text.push(url)
        urls.group.push(group)
        urls.flags.push(-1)
      }
      occ.rank.push(rank)
      occ.provider.push(providerIndex)
      occ.query.push(queryId)
      occ.list.push(list)
      occ.url.push(urlId)
      occ.result.push(result)
      groupSize[urls.group[urlId]!]!++
    }
  }

  // Queries compare by their text; rank them once so comparators compare numbers.
  const queryCount = queryTexts.length
  const byText = queryTexts.map((_, i) => i).sort((a, b) => cmp(queryTexts[a]!, queryTexts[b]!))
  const textOrder: number[] = new Array(queryCount)
  for (let i = 0; i < queryCount; i++) textOrder[byText[i]!] = i
  const given = new Map((options.queries ?? []).map((q, index) => [q, index]))
  const outputOrder: number[] = new Array(queryCount)
  const byOutput = queryTexts
    .map((_, i) => i)
    .sort(
      (a, b) =>
        (given.get(queryTexts[a]!) ?? Number.MAX_SAFE_INTEGER) - (given.get(queryTexts[b]!) ?? Number.MAX_SAFE_INTEGER) ||
        cmp(queryTexts[a]!, queryTexts[b]!),
    )
  for (let i = 0; i < queryCount; i++) outputOrder[byOutput[i]!] = i
  const occCount = occ.rank.length
  for (let o = 0; o < occCount; o++) occ.queryOrder.push(textOrder[occ.query[o]!]!)

  // Counting sort of occurrences by group, in arrival order within a group (so the stable sort below breaks
  // ties the way sorting each group's arrival-ordered list would).
  const groupCount = groupKeys.length
  const start: number[] = new Array(groupCount + 1)
  start[0] = 0
  for (let g = 0; g < groupCount; g++) start[g + 1] = start[g]! + groupSize[g]!
  const fill = start.slice(0, groupCount)
  const byGroup: number[] = new Array(occCount)
  for (let o = 0; o < occCount; o++) byGroup[fill[urls.group[occ.url[o]!]!]!++] = o

  const listCount = Math.max(1, lists.size)
  const norm = listCount / (k + 1)
  const dates: Dates = { index: new Map(), time: [], iso: [] }
  const out: MergedResult[] = new Array(groupCount)
  const raws: number[] = new Array(groupCount)
  const bestRankOf: number[] = new Array(groupCount)
  // Per provider (by `PROVIDER_NAMES` index), reused for every group.
  const bestRanks: number[] = new Array(PROVIDER_COUNT).fill(0)
  const bestScores: number[] = new Array(PROVIDER_COUNT).fill(0)
  // "Already seen in this group" marks: hold the number of the group that last saw each list and query.
  const listSeen: number[] = new Array(lists.size).fill(-1)
  const querySeen: number[] = new Array(queryCount).fill(-1)
  const groupQueries: number[] = []
  let members: number[] = []
  const byRank = (a: number, b: number): number => byRankThenProvider(occ, a, b)
  const byQueryOutput = (a: number, b: number): number => outputOrder[a]! - outputOrder[b]!

  for (let g = 0; g < groupCount; g++) {
    const count = groupSize[g]!
    if (count === 1) {
      members[0] = byGroup[start[g]!]!
    } else {
      members = byGroup.slice(start[g]!, start[g + 1]!)
      members.sort(byRank)
    }
    bestRanks.fill(0)
    bestScores.fill(Number.NaN)
    // Best first, so the first occurrence per list and per provider carries its best rank. One vote per
    // (provider, query) list: a list repeating a page does not count twice. The votes come in ascending rank,
    // so the float sum below has a fixed order: addition is not associative, and the output must not depend on
    // arrival order.
    let raw = 0
    groupQueries.length = 0
    for (let i = 0; i < count; i++) {
      const o = members[i]!
      const list = occ.list[o]!
      const rank = occ.rank[o]!
      if (listSeen[list] !== g) {
        listSeen[list] = g
        raw += 1 / (k + rank)
      }
      const q = occ.query[o]!
      if (querySeen[q] !== g) {
        querySeen[q] = g
        groupQueries.push(q)
      }
      const p = occ.provider[o]!
      if (p === PROVIDER_COUNT) continue
      if (bestRanks[p] === 0) bestRanks[p] = rank
      const score = occ.result[o]!.providerScore
      if (typeof score === 'number' && Number.isFinite(score) && !(score <= bestScores[p]!)) bestScores[p] = score
    }
    raw /= norm
    const sources: ProviderName[] = []
    const ranks: Partial<Record<ProviderName, number>> = {}
    const providerScores: Partial<Record<ProviderName, number>> = {}
    for (let p = 0; p < PROVIDER_COUNT; p++) {
      const best = bestRanks[p]!
      if (best === 0) continue
      const name = PROVIDER_NAMES[p]!
      sources.push(name)
      ranks[name] = best
      const score = bestScores[p]!
      if (!Number.isNaN(score)) providerScores[name] = score
    }
    if (groupQueries.length > 1) groupQueries.sort(byQueryOutput)
    const queries: string[] = new Array(groupQueries.length)
    for (let i = 0; i < groupQueries.length; i++) queries[i] = queryTexts[groupQueries[i]!]!

    const url = pickUrl(occ, urls, members, count)
    const title = pickTitle(occ, members, count, url)
    raws[g] = raw
    bestRankOf[g] = occ.rank[members[0]!]!
    out[g] = {
      title,
      url,
      canonicalUrl: groupKeys[g]!,
      snippet: pickSnippet(occ, members, count, title),
      publishedAt: pickDate(occ, members, count, now, dates),
      sources,
      source: sources.join(', '),
      ranks,
      providerScores,
      queries,
      fusion: Math.round(Math.min(1, raw) * 10_000) / 10_000,
    }
  }

  const order: number[] = new Array(groupCount)
  for (let g = 0; g < groupCount; g++) order[g] = g
  order.sort(
    (a, b) =>
      raws[b]! - raws[a]! ||
      out[b]!.sources.length - out[a]!.sources.length ||
      bestRankOf[a]! - bestRankOf[b]! ||
      cmp(groupKeys[a]!, groupKeys[b]!),
  )
  const sorted: MergedResult[] = new Array(groupCount)
  for (let i = 0; i < groupCount; i++) sorted[i] = out[order[i]!]!
  return sorted
}
