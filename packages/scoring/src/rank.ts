import { InputError } from '@search-layer/core'
import { boostOf, defaultAuthority, normalizeDomain } from './authority.js'
import { parseDateTime } from './date.js'
import { datedFreshness, halfLifeOf, undatedFreshness } from './freshness.js'
import { keywordFromFields, type PreparedQueries, prepareQueries } from './_text.js'
import { round4 } from './_math.js'
import type { MergedResult } from './merge.js'

/** How much each component counts; normalised to sum to 1, so the score stays in [0,1]. */
export interface ScoreWeights {
  keyword: number
  freshness: number
  authority: number
}

export interface ScoreOptions {
  /** The user's query. */
  query: string
  /** The expanded sub-queries; their terms count too (see `keywordScore`). */
  subQueries?: readonly string[]
  weights: ScoreWeights
  /** Domains that get +0.2 authority, capped at 1. */
  domainBoost?: readonly string[]
  /** The clock for freshness. Default: now. */
  now?: Date
  /** Freshness half-life in days. Default 180. */
  halfLifeDays?: number
}

export interface RankOptions extends Omit<ScoreOptions, 'weights'> {
  /** Intent weights; null or absent keeps the fused order and adds no score. */
  weights?: ScoreWeights | null
  /** Attach each result's score components. */
  explain?: boolean
}

/** Why a result is where it is. `authority` excludes the boost; the score uses `min(1, authority + boost)`. */
export interface ScoreExplain {
  keyword: number
  freshness: number
  authority: number
  boost: number
  fusion: number
}

export interface ScoreBreakdown extends ScoreExplain {
  score: number
}

export type ScoredResult = MergedResult & { score?: number; explain?: ScoreExplain }

/** The fields scoring reads; `merge` output has all of them. */
export interface ScorableResult {
  title?: string | null
  url: string
  snippet?: string | null
  publishedAt?: string | null
  fusion?: number
}

function checkWeights(weights: ScoreWeights): ScoreWeights {
  const entries = (['keyword', 'freshness', 'authority'] as const).map((name) => {
    const value = (weights as Partial<ScoreWeights>)[name] ?? 0
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new InputError(`weights.${name} must be a number >= 0`, [
        { path: `weights.${name}`, message: 'expected a finite number >= 0' },
      ])
    }
    return value
  })
  const sum = entries[0]! + entries[1]! + entries[2]!
  if (sum <= 0) throw new InputError('weights must not all be 0', [{ path: 'weights', message: 'sum must be > 0' }])
  return { keyword: entries[0]! / sum, freshness: entries[1]! / sum, authority: entries[2]! / sum }
}

interface Context {
  prepared: PreparedQueries
  now: Date
  halfLifeDays: number
  domainBoost: readonly string[]
  /** `domainBoost` through `normalizeDomain`, on first use. */
  boostDomains: string[] | undefined
}

/**
 * The score components of one result, written into `into`: `rank` reuses one object for every result it does not
 * explain. What `keywordScore`, `freshnessScore` and `authorityParts` give, without their option objects, the
 * joined title and snippet (built only for an undated result's year) or a parts object per result.
 */
function measure(result: ScorableResult, ctx: Context, into: ScoreExplain): ScoreExplain {
  const fields = result ?? { url: '' }
  const title = typeof fields.title === 'string' ? fields.title : ''
  const snippet = typeof fields.snippet === 'string' ? fields.snippet : ''
  const { host, base } = defaultAuthority.lookup(typeof fields.url === 'string' ? fields.url : '')
  let boost = 0
  if (host !== null && ctx.domainBoost.length > 0) {
    ctx.boostDomains ??= ctx.domainBoost.map(normalizeDomain)
    boost = boostOf(host, ctx.boostDomains)
  }
  const time = parseDateTime(fields.publishedAt, ctx.now)
  into.keyword = keywordFromFields(ctx.prepared, title, snippet)
  into.freshness =
    time !== null
      ? datedFreshness(time, ctx.now, ctx.halfLifeDays)
      : undatedFreshness(`${title}\n${snippet}`, ctx.now, ctx.halfLifeDays)
  into.authority = round4(base)
  into.boost = boost
  into.fusion = round4(typeof fields.fusion === 'number' ? fields.fusion : 0)
  return into
}

function components(result: ScorableResult, ctx: Context): ScoreExplain {
  return measure(result, ctx, { keyword: 0, freshness: 0, authority: 0, boost: 0, fusion: 0 })
}

function combine(parts: ScoreExplain, w: ScoreWeights): number {
  return round4(
    w.keyword * parts.keyword +
      w.freshness * parts.freshness +
      w.authority * Math.min(1, parts.authority + parts.boost),
  )
}

function contextOf(options: Omit<ScoreOptions, 'weights'>): Context {
  return {
    prepared: prepareQueries(options.query, options.subQueries ?? []),
    now: options.now ?? new Date(),
    halfLifeDays: halfLifeOf(options.halfLifeDays),
    domainBoost: options.domainBoost ?? [],
    boostDomains: undefined,
  }
}

/**
 * Score one result: `wK·keyword + wF·freshness + wA·min(1, authority + boost)`, weights normalised to sum 1,
 * every part in [0,1] and rounded to 4 decimals. Throws `InputError` for negative or all-zero weights.
 */
export function scoreResult(result: ScorableResult, options: ScoreOptions): ScoreBreakdown {
  const weights = checkWeights(options.weights)
  const parts = components(result, contextOf(options))
  return { score: combine(parts, weights), ...parts }
}

const MERGED_KEYS = [
  'title',
  'url',
  'canonicalUrl',
  'snippet',
  'publishedAt',
  'sources',
  'source',
  'ranks',
  'providerScores',
  'queries',
  'fusion',
] as const satisfies readonly (keyof MergedResult)[]

/**
 * `{ ...result, score, explain? }`. V8 copies a spread and then adds a property an order of magnitude slower than
 * it builds a literal, so a plain `merge` result (exactly its own keys, in order, no symbols) is copied key by key;
 * anything else takes the spread.
 */
function withScore<T extends MergedResult>(
  result: T,
  score: number,
  explain: ScoreExplain | undefined,
): T & ScoredResult {
  let i = 0
  for (const key in result) if (key !== MERGED_KEYS[i++]) return spreadWithScore(result, score, explain)
  if (i !== MERGED_KEYS.length || !Object.hasOwn(result, 'fusion') || Object.getOwnPropertySymbols(result).length > 0) {
    return spreadWithScore(result, score, explain)
  }
  const r: MergedResult = result
  const copy: ScoredResult = {
    title: r.title,
    url: r.url,
    canonicalUrl: r.canonicalUrl,
    snippet: r.snippet,
    publishedAt: r.publishedAt,
    sources: r.sources,
    source: r.source,
    ranks: r.ranks,
    providerScores: r.providerScores,
    queries: r.queries,
    fusion: r.fusion,
    score,
  }
  if (explain !== undefined) copy.explain = explain
  return copy as T & ScoredResult
}

function spreadWithScore<T extends MergedResult>(
  result: T,
  score: number,
  explain: ScoreExplain | undefined,
): T & ScoredResult {
  return explain === undefined ? { ...result, score } : { ...result, score, explain }
}

/**
 * Order merged results by intent-weighted score (ties: fusion, then canonical URL). With no weights, keep the
 * given (fused) order and add no score. Throws `InputError` for negative or all-zero weights.
 */
export function rank<T extends MergedResult>(merged: readonly T[], options: RankOptions): (T & ScoredResult)[] {
  const weights = options.weights == null ? null : checkWeights(options.weights)
  const list = (merged ?? []).filter((r) => r !== null && typeof r === 'object')
  if (weights === null && options.explain !== true) return list.map((r) => ({ ...r }))
  const ctx = contextOf(options)
  const n = list.length
  const explain = options.explain === true
  if (weights === null) {
    return list.map((r) => ({ ...r, explain: components(r, ctx) }))
  }
  // Sort indices over arrays of numbers: reading properties of the fresh result copies in the comparator, and
  // adding `score` to each copy after the spread, cost more than scoring itself.
  const scores = new Float64Array(n)
  const fusions = new Float64Array(n)
  const parts: ScoreExplain[] = explain ? new Array(n) : []
  const order = new Array<number>(n)
  const scratch: ScoreExplain = { keyword: 0, freshness: 0, authority: 0, boost: 0, fusion: 0 }
  for (let i = 0; i < n; i++) {
    const r = list[i]!
    const p = explain ? components(r, ctx) : measure(r, ctx, scratch)
    if (explain) parts[i] = p
    scores[i] = combine(p, weights)
    fusions[i] = r.fusion ?? 0
    order[i] = i
  }
  sortByScore(order, scores, fusions, list)
  const out: (T & ScoredResult)[] = new Array(n)
  for (let i = 0; i < n; i++) {
    const at = order[i]!
    out[i] = withScore(list[at]!, scores[at]!, explain ? parts[at]! : undefined)
  }
  return out
}

/** A score or fusion as a whole number of ten-thousandths (what `round4` leaves), or -1 when it is not one. */
function tenThousandths(value: number): number {
  const scaled = Math.round(value * 10_000)
  return scaled >= 0 && scaled <= 10_000 && scaled / 10_000 === value ? scaled : -1
}

/** The tie-break: canonical URL in byte order. */
function byUrl(list: readonly MergedResult[], a: number, b: number): number {
  const x = list[a]!.canonicalUrl
  const y = list[b]!.canonicalUrl
  return x < y ? -1 : x > y ? 1 : 0
}

/**
 * Sort `order` by score, then fusion (both descending), then canonical URL: what `rank` has always sorted by.
 * Scores, and fusions from `merge`, are ten-thousandths in [0,1]: with the index they pack into one number, and a
 * typed array sorts those natively, with no comparator call; only runs of equal score and fusion are then
 * sorted by URL. Other fusions take the comparator.
 */
function sortByScore(
  order: number[],
  scores: Float64Array,
  fusions: Float64Array,
  list: readonly MergedResult[],
): void {
  const n = order.length
  const packed = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const score = tenThousandths(scores[i]!)
    const fusion = tenThousandths(fusions[i]!)
    if (score === -1 || fusion === -1 || n > 80_000_000) {
      sortByComparator(order, scores, fusions, list)
      return
    }
    packed[i] = ((10_000 - score) * 10_001 + (10_000 - fusion)) * n + i
  }
  packed.sort()
  for (let i = 0; i < n; i++) order[i] = packed[i]! % n
  for (let start = 0; start < n; ) {
    const key = Math.floor(packed[start]! / n)
    let end = start + 1
    while (end < n && Math.floor(packed[end]! / n) === key) end++
    if (end - start > 1) {
      // In index order so far, and Array#sort is stable: equal URLs keep it, as before.
      const run = order.slice(start, end).sort((a, b) => byUrl(list, a, b))
      for (let i = start; i < end; i++) order[i] = run[i - start]!
    }
    start = end
  }
}

function sortByComparator(
  order: number[],
  scores: Float64Array,
  fusions: Float64Array,
  list: readonly MergedResult[],
): void {
  // -1/0/1 only: a fractional difference handed back to the sort builtin is a heap number each. NaN (a fusion
  // that is not a number) falls through to the next key, as `||` did.
  order.sort((a, b) => {
    const score = scores[b]! - scores[a]!
    if (score > 0) return 1
    if (score < 0) return -1
    const fusion = fusions[b]! - fusions[a]!
    if (fusion > 0) return 1
    if (fusion < 0) return -1
    return byUrl(list, a, b)
  })
}
