export { merge } from './merge.js'
export type { MergeableResult, MergedResult, MergeOptions, ResultBatch } from './merge.js'
export { rank, scoreResult } from './rank.js'
export type {
  RankOptions,
  ScorableResult,
  ScoreBreakdown,
  ScoreExplain,
  ScoredResult,
  ScoreOptions,
  ScoreWeights,
} from './rank.js'
export { keywordScore } from './keyword.js'
export type { TextFields } from './keyword.js'
export { parseDate } from './date.js'
export type { ParseDateOptions } from './date.js'
export { freshnessScore } from './freshness.js'
export type { FreshnessOptions } from './freshness.js'
export { authorityScore, authorityParts, createAuthorityScorer, normalizeDomain } from './authority.js'
export type { AuthorityOptions, AuthorityParts, AuthorityScorer, AuthorityTable } from './authority.js'
export { collapseNearDuplicates } from './near-duplicates.js'
export type { CollapsedResult, CollapsibleResult, NearDuplicate } from './near-duplicates.js'
export { diversifySites, siteOf } from './site-diversity.js'
export type { DiversifiedResult, DiversifyOptions } from './site-diversity.js'
export { enforceFilters } from './enforce-filters.js'
export type {
  EnforcedResults,
  FilterableResult,
  FilteredResult,
  FilterReason,
  ResultFilters,
} from './enforce-filters.js'
