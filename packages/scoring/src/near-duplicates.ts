import type { ProviderName } from '@search-layer/core'
import { HAN_CLASS, hasHan } from '@search-layer/core/text'

/**
 * Near-duplicate collapse: the same page under different URLs (syndication, mirrors, print and AMP copies the
 * canonical-URL rules miss) becomes one result. Decided on text alone: title token containment and snippet
 * 3-shingle containment, over hashed, sorted sets; only results sharing a title word are compared (an inverted
 * index). Deterministic (input order decides which copy stays); `pnpm bench` scenario 4 times it at 300 results.
 */

/** Another URL with the same content as the result it is folded into. */
export interface NearDuplicate {
  url: string
  canonicalUrl: string
  title: string
  sources: ProviderName[]
}

/** What collapse reads; `merge` and `rank` output has all of it. */
export interface CollapsibleResult {
  title: string
  url: string
  canonicalUrl: string
  snippet: string
  sources: ProviderName[]
  source: string
}

/** A result after collapse; `duplicates` lists the copies folded into it, when there were any. */
export type CollapsedResult<T> = T & { duplicates?: NearDuplicate[] }

const SHINGLE = 3
// Titles shorter than this ("Semantic Kernel 101") name a topic, not one page.
const MIN_TITLE_TOKENS = 4
// Long titles that agree almost word for word are the same article even when providers excerpt different passages.
const LONG_TITLE_TOKENS = 7
const MIN_SHINGLES = 8
const SAME_TITLE = 0.9
const SAME_TEXT = 0.75
const RELATED_TITLE = 0.6
const COMPATIBLE_TEXT = 0.3

export interface Fingerprint {
  title: Uint32Array
  text: Uint32Array
}

const TAG = /<[^>]*>/g
const TOKEN = new RegExp(`[${HAN_CLASS}]|[\\p{L}\\p{N}]+(?:'[\\p{L}]+)?`, 'gu')
// " - Site", " | Medium", " – Publisher", " · 知乎", "_CSDN博客": what sites append to an article's own title.
const TITLE_PARTS = /\s+[|\-–—·•]\s+|\s*[|｜_]\s*/

function tokens(text: string): string[] {
  return (
    text
      .replace(TAG, ' ')
      .normalize('NFKC')
      .toLowerCase()
      // Curly and straight apostrophes differ between a publisher and its republishers.
      .replace(/[\u2018\u2019\u02bc]/g, "'")
      .match(TOKEN) ?? []
  )
}

const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193
// Between a shingle's words, as if they were joined with U+0001.
const SHINGLE_SEPARATOR = 0x01

/** FNV-1a, 32 bits, continued from `h` over `text`. */
function fnv(text: string, h: number = FNV_OFFSET): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME)
  return h
}

/** Shingles and tokens become numbers so set operations are integer merges. */
function hash(text: string): number {
  return fnv(text) >>> 0
}

/** The hash of `words[at..at + SHINGLE)` joined by U+0001, without building that string. */
function shingleHash(words: readonly string[], at: number): number {
  let h = fnv(words[at]!)
  for (let i = at + 1; i < at + SHINGLE; i++) h = fnv(words[i]!, Math.imul(h ^ SHINGLE_SEPARATOR, FNV_PRIME))
  return h >>> 0
}

function sortedSet(values: number[]): Uint32Array {
  const sorted = Uint32Array.from(values).sort()
  let n = 0
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[n - 1]) sorted[n++] = sorted[i]!
  return sorted.slice(0, n)
}

/** The article's own title: the longest part once site names and section labels are split off. */
function titleTokens(title: string): number[] {
  let words: string[] = []
  for (const part of title.split(TITLE_PARTS)) {
    const partWords = tokens(part)
    if (partWords.length > words.length) words = partWords
  }
  // Chinese titles have no spaces: character bigrams stand in for words.
  const out: number[] = []
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!
    if (hasHan(w)) {
      const next = words[i + 1]
      if (next && hasHan(next)) out.push(hash(w + next))
    } else out.push(hash(w))
  }
  return out
}

function shingles(text: string): number[] {
  const words = tokens(text)
  const out: number[] = []
  for (let i = 0; i + SHINGLE <= words.length; i++) out.push(shingleHash(words, i))
  return out
}

export function fingerprint(result: CollapsibleResult): Fingerprint {
  return {
    title: sortedSet(titleTokens(String(result.title ?? ''))),
    text: sortedSet(shingles(String(result.snippet ?? ''))),
  }
}

/** |a ∩ b| / min(|a|, |b|): one text truncated or excerpted inside the other still scores 1. */
function containment(a: Uint32Array, b: Uint32Array): number {
  const small = Math.min(a.length, b.length)
  if (small === 0) return 0
  let shared = 0
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i]! < b[j]!) i++
    else if (a[i]! > b[j]!) j++
    else {
      shared++
      i++
      j++
    }
  }
  return shared / small
}

/**
 * The rule, in one place: same long title with compatible text, or the same text under a related title. `title` is
 * the titles' containment, when the caller has counted it already.
 */
export function isNearDuplicate(a: Fingerprint, b: Fingerprint, title = containment(a.title, b.title)): boolean {
  const titleTokensMin = Math.min(a.title.length, b.title.length)
  const shinglesMin = Math.min(a.text.length, b.text.length)
  if (title >= SAME_TITLE && titleTokensMin >= MIN_TITLE_TOKENS) {
    if (titleTokensMin >= LONG_TITLE_TOKENS || shinglesMin < MIN_SHINGLES) return true
    if (containment(a.text, b.text) >= COMPATIBLE_TEXT) return true
  }
  return shinglesMin >= MIN_SHINGLES && title >= RELATED_TITLE && containment(a.text, b.text) >= SAME_TEXT
}

// In `order` (the registry's, as `merge` orders sources), then any other provider alphabetically.
function unionSources(
  a: readonly ProviderName[],
  b: readonly ProviderName[],
  order: readonly string[],
): ProviderName[] {
  const rank = (name: string) => {
    const at = order.indexOf(name)
    return at === -1 ? order.length : at
  }
  return [...new Set([...a, ...b])].sort((x, y) => rank(x) - rank(y) || (x < y ? -1 : x > y ? 1 : 0))
}

/**
 * Folds results with the same content under different URLs into the first (best-ranked) copy, which keeps its
 * place and gains `duplicates` (every other URL, title and source) and the union of `sources`. Never throws; input
 * order decides, so ranked input stays ranked. `options.providers` orders the united `sources` (as `merge` does).
 */
export function collapseNearDuplicates<T extends CollapsibleResult>(
  results: readonly T[],
  options: { providers?: readonly string[] } = {},
): CollapsedResult<T>[] {
  const order = options.providers ?? []
  const list = (results ?? []).filter((r) => r !== null && typeof r === 'object')
  const prints = list.map(fingerprint)
  const groups: number[][] = []
  const groupOf: number[] = []
  // Both rules need shared title words, so only earlier results sharing one are looked at (an inverted index), and
  // the words each shares are counted on the way: the count gives the title containment, which settles most pairs
  // without a merge of the two titles (300 results with common words: most of the time went to collecting
  // candidates in a Set and comparing every pair's titles).
  const byTitleToken = new Map<number, number[]>()
  const sharedWords = new Int32Array(list.length)
  const touched: number[] = []
  for (let i = 0; i < list.length; i++) {
    const title = prints[i]!.title
    for (const token of title)
      for (const j of byTitleToken.get(token) ?? []) {
        if (sharedWords[j] === 0) touched.push(j)
        sharedWords[j] = sharedWords[j]! + 1
      }
    // The earliest group with a matching member wins, as if groups were scanned in order.
    let home = -1
    for (const j of touched) {
      const shared = sharedWords[j]!
      sharedWords[j] = 0
      const g = groupOf[j]!
      if (home !== -1 && g >= home) continue
      if (isNearDuplicate(prints[j]!, prints[i]!, shared / Math.min(title.length, prints[j]!.title.length))) home = g
    }
    touched.length = 0
    if (home === -1) {
      home = groups.length
      groups.push([])
    }
    groups[home]!.push(i)
    groupOf[i] = home
    for (const token of prints[i]!.title) {
      const holders = byTitleToken.get(token)
      if (holders) holders.push(i)
      else byTitleToken.set(token, [i])
    }
  }
  return groups.map(([first, ...rest]) => {
    const kept = list[first!]!
    if (rest.length === 0) return kept
    let sources = kept.sources
    const duplicates = rest.map((m) => {
      const copy = list[m]!
      sources = unionSources(sources, copy.sources ?? [], order)
      return { url: copy.url, canonicalUrl: copy.canonicalUrl, title: copy.title, sources: [...(copy.sources ?? [])] }
    })
    return { ...kept, sources, source: sources.join(', '), duplicates }
  })
}
