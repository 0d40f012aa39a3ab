import { InputError } from '@search-layer/core'
import { authorityParts } from './authority.js'
import { freshnessScore } from './date.js'
import { documentText, keywordFromText, type PreparedQueries, prepareQueries } from './_text.js'
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
  halfLifeDays: number | undefined
  domainBoost: readonly string[]
}

function components(result: ScorableResult, ctx: Context): ScoreExplain {
  const fields = result ?? { url: '' }
  const text = documentText(fields)
  const authority = authorityParts(typeof fields.url === 'string' ? fields.url : '', { domainBoost: ctx.domainBoost })
  return {
    keyword: keywordFromText(ctx.prepared, text),
    freshness: freshnessScore(fields.publishedAt, { now: ctx.now, halfLifeDays: ctx.halfLifeDays, text }),
    authority: round4(authority.base),
    boost: authority.boost,
    fusion: round4(typeof fields.fusion === 'number' ? fields.fusion : 0),
  }
}

function combine(parts: ScoreExplain, w: ScoreWeights): number {
  return round4(
    w.keyword * parts.keyword + w.freshness * parts.freshness + w.authority * Math.min(1, parts.authority + parts.boost),
  )
}

function contextOf(options: Omit<ScoreOptions, 'weights'>): Context {
  return {
    prepared: prepareQueries(options.query, options.subQueries ?? []),
    now: options.now ?? new Date(),
    halfLifeDays: options.halfLifeDays,
    domainBoost: options.domainBoost ?? [],
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
function withScore<T extends MergedResult>(result: T, score: number, explain: ScoreExplain | undefined): T & ScoredResult {
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

function spreadWithScore<T extends MergedResult>(result: T, score: number, explain: ScoreExplain | undefined): T & ScoredResult {
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
  const scores: number[] = new Array(n)
  const fusions: number[] = new Array(n)
  const parts: ScoreExplain[] = new Array(n)
  const order: number[] = new Array(n)
  for (let i = 0; i < n; i++) {
    const r = list[i]!
    const p = components(r, ctx)
    parts[i] = p
    scores[i] = combine(p, weights)
    fusions[i] = r.fusion ?? 0
    order[i] = i
  }
  order.sort(
    (a, b) =>
      scores[b]! - scores[a]! ||
      fusions[b]! - fusions[a]! ||
      (list[a]!.canonicalUrl < list[b]!.canonicalUrl ? -1 : list[a]!.canonicalUrl > list[b]!.canonicalUrl ? 1 : 0),
  )
  const out: (T & ScoredResult)[] = new Array(n)
  for (let i = 0; i < n; i++) {
    const at = order[i]!
    out[i] = withScore(list[at]!, scores[at]!, explain ? parts[at]! : undefined)
  }
  return out
}
