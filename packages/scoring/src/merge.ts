import { canonicalUrl, type ProviderName } from '@search-layer/core'
import tracking from '../../../references/tracking-params.json'
import { canonicalIsoTime, fastDateTime, isoString, parseDateTime } from './date.js'

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
  /**
   * Order of `MergedResult.sources` (the engine passes its registry's provider order); providers not listed follow
   * alphabetically.
   */
  providers?: readonly string[]
}

/** One page, after folding every provider's and sub-query's copy of it together. */
export interface MergedResult {
  title: string
  /** The original URL of the best variant (no tracking parameters, https, not mobile/AMP, best ranked), for display. */
  url: string
  canonicalUrl: string
  snippet: string
  publishedAt: string | null
  /** Providers that found it, in `MergeOptions.providers` order. */
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

const FUTURE_TOLERANCE_MS = 86_400_000
const MIN_RELIABLE = Date.UTC(1990, 0, 1)

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * What `replace(/\s+/g, ' ')` changes: runs of two or more whitespace, and lone whitespace but the plain space.
 * The same result, with a match per messy run instead of one per space between words.
 */
const SPACES = /\s{2,}|[^\S ]/g

function clean(text: unknown): string {
  if (typeof text !== 'string') return ''
  // Most provider text is already clean; skip the rewrite (and its garbage) when it is.
  return MESSY.test(text) ? text.replace(SPACES, ' ').trim() : text.trim()
}

/**
 * Where `\s+` has something to collapse, as merge has always judged it: any whitespace but the plain space,
 * U+1680, U+202F, U+205F and U+FEFF, or two of those in a row. (A lone one of those four inside the text stays.)
 * A regex scan: a char-code loop in JavaScript costs several times more.
 */
const MESSY = /[\t-\r\u00a0\u2000-\u200a\u2028\u2029\u3000]|[ \u1680\u202f\u205f\ufeff]{2}/

const TRACKING_NAMES = new Set(tracking.names.map((n) => n.toLowerCase()))
const TRACKING_PREFIXES = tracking.prefixes.map((p) => p.toLowerCase())
const MIRROR_HOST = /^[a-z]+:\/\/(?:www\.)?(?:m|mobile|amp)\./
const AMP_PATH = /\/amp\/?(?:[?#]|$)|[?&]amp(?:=|&|#|$)/
const MIRROR_HOST_ANY_CASE = new RegExp(MIRROR_HOST.source, 'i')
const AMP_PATH_ANY_CASE = new RegExp(AMP_PATH.source, 'i')
const BARE_URL = /^https?:\/\/\S+$/i
const WWW = /^www\./

/**
 * A variant carrying click-tracking parameters is a worse URL to show, even though it is the same page. Pairs
 * are split on "&" and "#" after the first "?".
 */
export function hasTracking(url: string): boolean {
  const query = url.indexOf('?')
  if (query === -1) return false
  for (let from = query + 1; from < url.length; ) {
    let to = from
    let eq = -1
    for (; to < url.length; to++) {
      const c = url.charCodeAt(to)
      if (c === 38 || c === 35) break
      if (c === 61 && eq === -1) eq = to
    }
    const name = url.slice(from, eq === -1 ? to : eq).toLowerCase()
    if (TRACKING_NAMES.has(name)) return true
    for (const prefix of TRACKING_PREFIXES) if (name.startsWith(prefix)) return true
    from = to + 1
  }
  return false
}

/** `^https:`, in any case. */
function isHttps(url: string): boolean {
  return (
    (url.charCodeAt(0) | 32) === 104 &&
    (url.charCodeAt(1) | 32) === 116 &&
    (url.charCodeAt(2) | 32) === 116 &&
    (url.charCodeAt(3) | 32) === 112 &&
    (url.charCodeAt(4) | 32) === 115 &&
    url.charCodeAt(5) === 58
  )
}

/**
 * A mobile or AMP mirror: MIRROR_HOST or AMP_PATH on the lower-cased URL. Lower-casing turns no non-ASCII
 * character into ASCII but the Kelvin sign (K → k) and the dotted capital I (İ → i̇), and no ASCII character into
 * anything but its lower case; so without those two, the case-insensitive regexes on the URL itself answer the
 * same, without the lower-cased copy.
 */
export function isMirror(url: string): boolean {
  if (url.includes('\u212a') || url.includes('\u0130')) return isMirrorByRegex(url)
  return MIRROR_HOST_ANY_CASE.test(url) || AMP_PATH_ANY_CASE.test(url)
}

function isMirrorByRegex(url: string): boolean {
  const lower = url.toLowerCase()
  if (MIRROR_HOST.test(lower)) return true
  return lower.includes('amp') && AMP_PATH.test(lower)
}

/**
 * Everything merge knows about one occurrence (one provider result), in parallel typed arrays indexed by
 * occurrence number, sized once: 10,000 results would otherwise be 10,000 short-lived objects (or arrays grown by
 * push), and their garbage collection.
 */
interface Occurrences {
  /** Integers, but not necessarily small ones. */
  rank: Float64Array
  provider: Int32Array
  /** Position of the query in byte order: compares like the query strings themselves. */
  queryOrder: Int32Array
  query: Int32Array
  list: Int32Array
  /** Index into `Urls`. */
  url: Int32Array
  result: MergeableResult[]
  /** Occurrence numbers grouped by group, each group's run sorted best first (see `byRankThenProvider`). */
  byGroup: Int32Array
}

/** Distinct cleaned URL strings of one merge; the properties pickUrl compares are worked out once per string. */
interface Urls {
  text: string[]
  group: Int32Array
  /** Bit 1 tracking, 2 https, 4 mirror; -1 until first needed. */
  flags: Int8Array
}

const TRACKING_FLAG = 1
const HTTPS_FLAG = 2
const MIRROR_FLAG = 4

function urlFlags(urls: Urls, id: number): number {
  let flags = urls.flags[id]!
  if (flags === -1) {
    const text = urls.text[id]!
    flags =
      (hasTracking(text) ? TRACKING_FLAG : 0) | (isHttps(text) ? HTTPS_FLAG : 0) | (isMirror(text) ? MIRROR_FLAG : 0)
    urls.flags[id] = flags
  }
  return flags
}

/** Order occurrences best first; the final tie-breaks make the choice independent of arrival order. */
function byRankThenProvider(occ: Occurrences, a: number, b: number): number {
  return occ.rank[a]! - occ.rank[b]! || occ.provider[a]! - occ.provider[b]! || occ.queryOrder[a]! - occ.queryOrder[b]!
}

/** Groups are a handful of occurrences: an insertion sort (stable) beats `Array#sort` and allocates nothing. */
const INSERTION_SORT_MAX = 32

function sortGroup(occ: Occurrences, start: number, end: number): void {
  const byGroup = occ.byGroup
  if (end - start > INSERTION_SORT_MAX) {
    const sorted = Array.from(byGroup.subarray(start, end)).sort((a, b) => byRankThenProvider(occ, a, b))
    byGroup.set(sorted, start)
    return
  }
  for (let i = start + 1; i < end; i++) {
    const o = byGroup[i]!
    let j = i - 1
    while (j >= start && byRankThenProvider(occ, byGroup[j]!, o) > 0) {
      byGroup[j + 1] = byGroup[j]!
      j--
    }
    byGroup[j + 1] = o
  }
}

function pickUrl(occ: Occurrences, urls: Urls, start: number, count: number): string {
  const byGroup = occ.byGroup
  let winner = byGroup[start]!
  let winId = occ.url[winner]!
  if (count === 1) return urls.text[winId]!
  // One pass, best under: no tracking, https, not a mirror, best ranked, shortest, then by text.
  let winFlags = urlFlags(urls, winId)
  for (let i = 1; i < count; i++) {
    const o = byGroup[start + i]!
    const id = occ.url[o]!
    if (id === winId) continue
    const flags = urlFlags(urls, id)
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
  const last = text.charCodeAt(text.length - 1)
  return (
    last === 0x2026 ||
    (last === 46 && text.charCodeAt(text.length - 2) === 46 && text.charCodeAt(text.length - 3) === 46)
  )
}

/** `^https?:\/\/`, in any case, by char code: a title that is a URL is no title. */
function isHttpUrl(text: string): boolean {
  if ((text.charCodeAt(0) | 32) !== 104 || (text.charCodeAt(1) | 32) !== 116 || (text.charCodeAt(2) | 32) !== 116) {
    return false
  }
  if ((text.charCodeAt(3) | 32) !== 112) return false
  const at = (text.charCodeAt(4) | 32) === 115 ? 5 : 4
  return text.charCodeAt(at) === 58 && text.charCodeAt(at + 1) === 47 && text.charCodeAt(at + 2) === 47
}

/**
 * Raw field values already looked at in the current group. A value seen at an earlier (better ranked) member
 * can never win against it, whichever rule picks the winner, so a repeat is skipped without cleaning it again.
 */
const seen: unknown[] = []

function seenBefore(value: unknown, index: number): boolean {
  seen[index] = value
  for (let j = 0; j < index; j++) if (seen[j] === value) return true
  return false
}

function pickTitle(occ: Occurrences, start: number, count: number, url: string): string {
  const byGroup = occ.byGroup
  let winner = -1
  let winText = ''
  let winTruncated = false
  for (let i = 0; i < count; i++) {
    const o = byGroup[start + i]!
    const raw = occ.result[o]!.title
    if (count > 1 && seenBefore(raw, i)) continue
    const text = clean(raw)
    if (text === '' || isHttpUrl(text) || (text.length === 8 && text.toLowerCase() === 'untitled')) continue
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

/** `\s` of a JavaScript regex, by char code. */
function isSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13)
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  )
}

/** `[:：|–—-]`: what separates a title from the rest of a snippet. */
function isTitleSeparator(c: number): boolean {
  return c === 58 || c === 45 || c === 124 || c === 0x2013 || c === 0x2014 || c === 0xff1a
}

// Answer-derived snippets often read "Title: what the page says"; the title is shown anyway, and repeating it
// must not make a snippet win "longest". The separator after the title (`^\s*[:：|–—-]\s*`) is read by char
// code: one slice, no regex, no intermediate string.
function withoutTitlePrefix(text: string, title: string): string {
  if (title.length === 0 || text.length <= title.length || !text.startsWith(title)) return text
  let at = title.length
  while (at < text.length && isSpace(text.charCodeAt(at))) at++
  if (!isTitleSeparator(text.charCodeAt(at))) return text
  at++
  while (at < text.length && isSpace(text.charCodeAt(at))) at++
  return text.slice(at)
}

function pickSnippet(occ: Occurrences, start: number, count: number, title: string): string {
  const byGroup = occ.byGroup
  let winner = -1
  let winText = ''
  let lowerTitle: string | undefined
  for (let i = 0; i < count; i++) {
    const o = byGroup[start + i]!
    const raw = occ.result[o]!.snippet
    if (count > 1 && seenBefore(raw, i)) continue
    const text = withoutTitlePrefix(clean(raw), title)
    if (text === '') continue
    if (text.length === title.length) {
      // Lower-cased only when a snippet could repeat the title: most never have its exact length.
      lowerTitle ??= title.toLowerCase()
      if (text.toLowerCase() === lowerTitle) continue
    }
    if (text.startsWith('http') && BARE_URL.test(text)) continue
    if (
      winner === -1 ||
      (winText.length - text.length || byRankThenProvider(occ, o, winner) || cmp(text, winText)) < 0
    ) {
      winner = o
      winText = text
    }
  }
  return winText
}

/** The reliable time of a raw `publishedAt`, or NaN. */
function reliableTime(time: number | null, now: number): number {
  // Later dates are usually "updated" or crawl dates; future and pre-web dates are junk.
  return time === null || time > now + FUTURE_TOLERANCE_MS || time < MIN_RELIABLE ? Number.NaN : time
}

/**
 * Dates of the shapes `fastDateTime` does not read (junk, mostly) take the general parser, once per distinct
 * string and merge.
 */
function dateTime(value: unknown, now: Date, general: Map<string, number | null>): number | null {
  if (typeof value !== 'string') return parseDateTime(value, now)
  const fast = fastDateTime(value, now)
  if (fast !== undefined) return fast
  let time = general.get(value)
  if (time === undefined) {
    time = parseDateTime(value, now)
    general.set(value, time)
  }
  return time
}

function pickDate(
  occ: Occurrences,
  start: number,
  count: number,
  now: Date,
  general: Map<string, number | null>,
): string | null {
  const byGroup = occ.byGroup
  const nowTime = now.getTime()
  // Earliest, because later dates are usually "updated" or crawl dates.
  let earliest = Number.NaN
  let from: unknown
  for (let i = 0; i < count; i++) {
    const value = occ.result[byGroup[start + i]!]!.publishedAt
    if (count > 1 && seenBefore(value, i)) continue
    const time = reliableTime(dateTime(value, now, general), nowTime)
    if (time < earliest || (Number.isNaN(earliest) && !Number.isNaN(time))) {
      earliest = time
      from = value
    }
  }
  if (Number.isNaN(earliest)) return null
  // The ISO form parseDate gives: a canonical ISO input round-trips to itself, so it is its own ISO form.
  if (typeof from === 'string' && from.length === 24 && canonicalIsoTime(from) === earliest) return from
  return isoString(earliest)
}

/** The order of `sources`: the listed providers first, then any other provider in the batches alphabetically. */
function providerOrderOf(batches: readonly ResultBatch[], listed: readonly string[] = []): string[] {
  const order = [...new Set(listed)]
  const known = new Set(order)
  const others: string[] = []
  for (const batch of batches) {
    const provider = batch !== null && typeof batch === 'object' ? batch.provider : undefined
    if (typeof provider === 'string' && !known.has(provider)) {
      known.add(provider)
      others.push(provider)
    }
  }
  return order.concat(others.sort(cmp))
}

/**
 * `sources.join(", ")` per set of providers (bit p for `order[p]`), per provider order: a few strings, shared by
 * every merge with that order. Past 30 providers the mask no longer fits, and the text is joined every time.
 */
const SOURCE_TEXTS = new Map<string, string[]>()

function sourceTextsFor(order: readonly string[]): string[] | undefined {
  if (order.length > 30) return undefined
  const key = order.join('\u0000')
  let texts = SOURCE_TEXTS.get(key)
  if (!texts) {
    if (SOURCE_TEXTS.size >= 64) SOURCE_TEXTS.clear()
    texts = []
    SOURCE_TEXTS.set(key, texts)
  }
  return texts
}

function sourceText(texts: string[] | undefined, mask: number, sources: readonly string[]): string {
  if (!texts) return sources.join(', ')
  let text = texts[mask]
  if (text === undefined) {
    text = sources.join(', ')
    texts[mask] = text
  }
  return text
}

/** Key characters packed per number: 6 of at most 8 bits each (+1, so that a shorter key sorts first) fit in 2^53. */
const PACKED_CHARS = 6
const PACKED_WORDS = 4
/** Where packing starts: every http(s) key starts with it. */
const KEY_PREFIX = 'https://'

/**
 * `cmp` over canonical keys, which break most fusion ties in the final sort: thousands of string comparisons of
 * keys that share "https://" and often the host. Each key's next 24 characters are packed into numbers as the
 * key is added (while it is still in cache), and comparing those settles nearly every pair without the strings.
 */
export class KeyOrder {
  private readonly keys: string[] = []
  private packed: Float64Array
  /** 1 where a key starts with KEY_PREFIX and has no character above U+00FF in its packed part. */
  private packable: Uint8Array

  constructor(capacity: number) {
    this.packed = new Float64Array(Math.max(1, capacity) * PACKED_WORDS)
    this.packable = new Uint8Array(Math.max(1, capacity))
  }

  /** Add a key; its index is the number of keys added before it. */
  add(key: string): void {
    const g = this.keys.length
    this.keys.push(key)
    if (g >= this.packable.length) {
      const packed = new Float64Array(this.packed.length * 2)
      packed.set(this.packed)
      this.packed = packed
      const packable = new Uint8Array(this.packable.length * 2)
      packable.set(this.packable)
      this.packable = packable
    }
    if (!key.startsWith(KEY_PREFIX)) return
    let ok = 1
    for (let w = 0; w < PACKED_WORDS; w++) {
      let word = 0
      const from = KEY_PREFIX.length + w * PACKED_CHARS
      for (let i = from; i < from + PACKED_CHARS; i++) {
        const c = i < key.length ? key.charCodeAt(i) + 1 : 0
        if (c > 256) ok = 0
        word = word * 257 + c
      }
      this.packed[g * PACKED_WORDS + w] = word
    }
    this.packable[g] = ok
  }

  compare(a: number, b: number): number {
    if (this.packable[a] === 1 && this.packable[b] === 1) {
      for (let w = 0; w < PACKED_WORDS; w++) {
        const d = this.packed[a * PACKED_WORDS + w]! - this.packed[b * PACKED_WORDS + w]!
        if (d !== 0) return d > 0 ? 1 : -1
      }
    }
    return cmp(this.keys[a]!, this.keys[b]!)
  }
}

/** Every occurrence of every result, packed: the lists, queries, URLs and canonical groups they belong to. */
interface MergeTable {
  occ: Occurrences
  occCount: number
  urls: Urls
  lists: Map<string, number>
  queryTexts: string[]
  groupKeys: string[]
  keyOrder: KeyOrder
  groupSize: Int32Array
}

/** What fusing each group gave, by group number: the results and the keys `rankGroups` orders them by. */
interface FusedGroups {
  out: MergedResult[]
  raws: Float64Array
  sourceCounts: Int32Array
  bestRankOf: Float64Array
}

/**
 * Reads every batch once into packed arrays sized by `total`: each result's rank, provider, query, list and URL, and
 * each URL's canonical group (canonicalised once per distinct URL string).
 */
function collectOccurrences(
  batchList: readonly ResultBatch[],
  total: number,
  providerOrder: readonly string[],
): MergeTable {
  const lists = new Map<string, number>()
  const queryIds = new Map<string, number>()
  const queryTexts: string[] = []
  const occ: Occurrences = {
    rank: new Float64Array(total),
    provider: new Int32Array(total),
    queryOrder: new Int32Array(total),
    query: new Int32Array(total),
    list: new Int32Array(total),
    url: new Int32Array(total),
    result: new Array(total),
    byGroup: new Int32Array(total),
  }
  // Providers and sub-queries return the same URL strings over and over: canonicalise each one once, and map
  // it straight to its group.
  const urlIds = new Map<string, number>()
  const urls: Urls = { text: [], group: new Int32Array(total), flags: new Int8Array(total).fill(-1) }
  const groupIds = new Map<string, number>()
  const groupKeys: string[] = []
  const keyOrder = new KeyOrder(total)
  const groupSize = new Int32Array(total)
  let occCount = 0
  const providerIndexes = new Map(providerOrder.map((name, index) => [name, index]))
  const providerCount = providerOrder.length

  for (const batch of batchList) {
    if (batch === null || typeof batch !== 'object' || !Array.isArray(batch.results)) continue
    const query = typeof batch.query === 'string' ? batch.query : ''
    const provider = batch.provider
    const providerIndex = providerIndexes.get(provider) ?? providerCount
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
    // A getter could hand back a longer array than the one counted: never write past the arrays' size.
    const length = Math.min(results.length, total - occCount)
    for (let index = 0; index < length; index++) {
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
          keyOrder.add(key)
        }
        urlId = urls.text.length
        urlIds.set(url, urlId)
        urls.text.push(url)
        urls.group[urlId] = group
      }
      occ.rank[occCount] = rank
      occ.provider[occCount] = providerIndex
      occ.query[occCount] = queryId
      occ.list[occCount] = list
      occ.url[occCount] = urlId
      occ.result[occCount] = result
      occCount++
      groupSize[urls.group[urlId]!]!++
    }
  }
  return { occ, occCount, urls, lists, queryTexts, groupKeys, keyOrder, groupSize }
}

/**
 * Numbers the queries two ways: by text (for comparators, written into `occ.queryOrder`) and in output order
 * (the caller's order first, then by text). Returns the output order by query number.
 */
function orderQueries(table: MergeTable, givenQueries: readonly string[] | undefined): Int32Array {
  const { occ, occCount, queryTexts } = table
  // Queries compare by their text; rank them once so comparators compare numbers.
  const queryCount = queryTexts.length
  const byText = queryTexts.map((_, i) => i).sort((a, b) => cmp(queryTexts[a]!, queryTexts[b]!))
  const textOrder: number[] = new Array(queryCount)
  for (let i = 0; i < queryCount; i++) textOrder[byText[i]!] = i
  const given = new Map((givenQueries ?? []).map((q, index) => [q, index]))
  const outputOrder = new Int32Array(queryCount)
  const byOutput = queryTexts
    .map((_, i) => i)
    .sort(
      (a, b) =>
        (given.get(queryTexts[a]!) ?? Number.MAX_SAFE_INTEGER) -
          (given.get(queryTexts[b]!) ?? Number.MAX_SAFE_INTEGER) || cmp(queryTexts[a]!, queryTexts[b]!),
    )
  for (let i = 0; i < queryCount; i++) outputOrder[byOutput[i]!] = i
  for (let o = 0; o < occCount; o++) occ.queryOrder[o] = textOrder[occ.query[o]!]!
  return outputOrder
}

/** Counting sort of occurrences by group into `occ.byGroup`; returns where each group starts in it. */
function groupOccurrences(table: MergeTable): Int32Array {
  const { occ, occCount, urls, groupKeys, groupSize } = table
  // Counting sort of occurrences by group, in arrival order within a group (so the stable sort below breaks
  // ties the way sorting each group's arrival-ordered list would).
  const groupCount = groupKeys.length
  const start = new Int32Array(groupCount + 1)
  for (let g = 0; g < groupCount; g++) start[g + 1] = start[g]! + groupSize[g]!
  const fill = start.slice(0, groupCount)
  const byGroup = occ.byGroup
  for (let o = 0; o < occCount; o++) byGroup[fill[urls.group[occ.url[o]!]!]!++] = o
  return start
}

/**
 * Fuses each group into one result: its reciprocal-rank sum over the lists that found it (one vote per list), its
 * sources with their best ranks and scores, the queries that found it, and the best URL, title, snippet and date.
 */
function fuseGroups(
  table: MergeTable,
  start: Int32Array,
  outputOrder: Int32Array,
  context: { k: number; now: Date; providerOrder: readonly string[]; sourceTexts: string[] | undefined },
): FusedGroups {
  const { occ, urls, lists, queryTexts, groupKeys, groupSize } = table
  const { k, now, providerOrder, sourceTexts } = context
  const providerCount = providerOrder.length
  const byGroup = occ.byGroup
  const groupCount = groupKeys.length
  const queryCount = queryTexts.length
  const listCount = Math.max(1, lists.size)
  const norm = listCount / (k + 1)
  const generalDates = new Map<string, number | null>()
  const out: MergedResult[] = new Array(groupCount)
  const raws = new Float64Array(groupCount)
  const sourceCounts = new Int32Array(groupCount)
  const bestRankOf = new Float64Array(groupCount)
  // Per provider (by `providerOrder` index), reused for every group.
  const bestRanks = new Float64Array(providerCount)
  const bestScores = new Float64Array(providerCount)
  // "Already seen in this group" marks: hold the number of the group that last saw each list and query.
  const listSeen = new Int32Array(lists.size).fill(-1)
  const querySeen = new Int32Array(queryCount).fill(-1)
  const groupQueries: number[] = []

  for (let g = 0; g < groupCount; g++) {
    const first = start[g]!
    const count = groupSize[g]!
    if (count > 1) sortGroup(occ, first, first + count)
    bestRanks.fill(0)
    bestScores.fill(Number.NaN)
    // Best first, so the first occurrence per list and per provider carries its best rank. One vote per
    // (provider, query) list: a list repeating a page does not count twice. The votes come in ascending rank,
    // so the float sum below has a fixed order: addition is not associative, and the output must not depend on
    // arrival order.
    let raw = 0
    groupQueries.length = 0
    for (let i = 0; i < count; i++) {
      const o = byGroup[first + i]!
      const list = occ.list[o]!
      const rank = occ.rank[o]!
      if (listSeen[list] !== g) {
        listSeen[list] = g
        raw += 1 / (k + rank)
      }
      const q = occ.query[o]!
      if (querySeen[q] !== g) {
        querySeen[q] = g
        // Insertion in output order: a page is found by a few queries at most.
        let at = groupQueries.length
        while (at > 0 && outputOrder[groupQueries[at - 1]!]! > outputOrder[q]!) {
          groupQueries[at] = groupQueries[at - 1]!
          at--
        }
        groupQueries[at] = q
      }
      const p = occ.provider[o]!
      if (p === providerCount) continue
      if (bestRanks[p] === 0) bestRanks[p] = rank
      const score = occ.result[o]!.providerScore
      if (typeof score === 'number' && Number.isFinite(score) && !(score <= bestScores[p]!)) bestScores[p] = score
    }
    raw /= norm
    const sources: ProviderName[] = []
    const ranks: Partial<Record<ProviderName, number>> = {}
    const providerScores: Partial<Record<ProviderName, number>> = {}
    let mask = 0
    for (let p = 0; p < providerCount; p++) {
      const best = bestRanks[p]!
      if (best === 0) continue
      const name = providerOrder[p]!
      sources.push(name)
      mask |= 1 << p
      ranks[name] = best
      const score = bestScores[p]!
      if (!Number.isNaN(score)) providerScores[name] = score
    }
    const queries: string[] = new Array(groupQueries.length)
    for (let i = 0; i < groupQueries.length; i++) queries[i] = queryTexts[groupQueries[i]!]!

    const url = pickUrl(occ, urls, first, count)
    const title = pickTitle(occ, first, count, url)
    raws[g] = raw
    sourceCounts[g] = sources.length
    bestRankOf[g] = occ.rank[byGroup[first]!]!
    out[g] = {
      title,
      url,
      canonicalUrl: groupKeys[g]!,
      snippet: pickSnippet(occ, first, count, title),
      publishedAt: pickDate(occ, first, count, now, generalDates),
      sources,
      source: sourceText(sourceTexts, mask, sources),
      ranks,
      providerScores,
      queries,
      fusion: Math.round(Math.min(1, raw) * 10_000) / 10_000,
    }
  }
  return { out, raws, sourceCounts, bestRankOf }
}

/** The groups by fusion score, then number of sources, then best rank, then canonical key: a total order. */
function rankGroups(fused: FusedGroups, keyOrder: KeyOrder): MergedResult[] {
  const { out, raws, sourceCounts, bestRankOf } = fused
  const groupCount = out.length
  const order: number[] = new Array(groupCount)
  for (let g = 0; g < groupCount; g++) order[g] = g
  // Comparators answer -1/0/1: a fractional difference handed back to the sort builtin is a heap number each.
  order.sort((a, b) => {
    const raw = raws[b]! - raws[a]!
    if (raw !== 0) return raw > 0 ? 1 : -1
    const sourced = sourceCounts[b]! - sourceCounts[a]!
    if (sourced !== 0) return sourced
    const ranked = bestRankOf[a]! - bestRankOf[b]!
    if (ranked !== 0) return ranked > 0 ? 1 : -1
    return keyOrder.compare(a, b)
  })
  const sorted: MergedResult[] = new Array(groupCount)
  for (let i = 0; i < groupCount; i++) sorted[i] = out[order[i]!]!
  return sorted
}

/**
 * Fold results from every provider and sub-query into one list, grouped by `canonicalUrl`, ordered by normalised
 * reciprocal rank fusion (Σ 1/(k+rank) over the lists that found a page). The same batches in any order give
 * the same output. Never throws.
 */
export function merge(batches: readonly ResultBatch[], options: MergeOptions = {}): MergedResult[] {
  const k = options.k !== undefined && Number.isFinite(options.k) && options.k >= 0 ? options.k : 60
  const now = options.now ?? new Date()
  // Two passes (size, then fill): a one-shot iterable is read into an array first.
  const batchList: readonly ResultBatch[] = Array.isArray(batches) ? batches : [...(batches ?? [])]
  let total = 0
  for (const batch of batchList) {
    if (batch !== null && typeof batch === 'object' && Array.isArray(batch.results)) total += batch.results.length
  }
  const providerOrder = providerOrderOf(batchList, options.providers)
  const table = collectOccurrences(batchList, total, providerOrder)
  const outputOrder = orderQueries(table, options.queries)
  const start = groupOccurrences(table)
  const fused = fuseGroups(table, start, outputOrder, {
    k,
    now,
    providerOrder,
    sourceTexts: sourceTextsFor(providerOrder),
  })
  seen.length = 0
  return rankGroups(fused, table.keyOrder)
}
