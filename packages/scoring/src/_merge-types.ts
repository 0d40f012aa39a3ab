import type { ProviderName } from '@search-layer/core'

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
