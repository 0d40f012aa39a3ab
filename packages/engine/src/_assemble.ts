import type { ProviderError, ProviderName, SearchResult } from '@search-layer/core'
import type { IntentClassification } from '@search-layer/intent'
import type { NearDuplicate, ResultFilters } from '@search-layer/scoring'
import type { EnforcementSummary } from './_operators.js'
import type { ParsedSearchRequest } from './request.js'
import type { SearchResultOut } from './response.js'

/** One provider call's outcome, as the fan-out records it. */
export interface CallOutcome {
  provider: ProviderName
  query: string
  results?: SearchResult[]
  answer?: string
  error?: ProviderError
  ms: number
  cost?: { usd?: number; credits?: number }
}

/** What ranking needs to know about the search, fixed once the plan is made. */
export interface AssembleContext {
  req: ParsedSearchRequest
  baseQuery: string
  queries: string[]
  classification: IntentClassification | null
  now: Date
  /** The registry's provider ids, in order: the order of each result's `sources`. */
  providers: readonly ProviderName[]
  /** Whose written answer leads when several gave one (`answerPreference`). */
  answerOrder: readonly ProviderName[]
  /** Filters enforced on the merged results whatever the providers did; absent when none is in force. */
  filters?: ResultFilters
}

/** The merged, scored results of the outcomes so far, and the answer a provider wrote, if any. */
export interface Assembled {
  results: SearchResultOut[]
  answer?: string
  answer_source?: ProviderName
  /** What `filters` dropped and marked. */
  enforcement: EnforcementSummary
}

/**
 * Merges, dedupes and scores the successful outcomes: the final step of a search, and of every re-ranking a
 * stream sends while providers are still answering.
 */
export function assembleResults(
  outcomes: readonly CallOutcome[],
  { req, baseQuery, queries, classification, now, providers, answerOrder, filters }: AssembleContext,
  { merge, rank, collapseNearDuplicates, diversifySites, enforceFilters }: typeof import('@search-layer/scoring'),
): Assembled {
  const batches = outcomes
    .filter((o) => o.results)
    .map((o) => ({ query: o.query, provider: o.provider, results: o.results! }))
  const enforced = enforceFilters(merge(batches, { now, queries, providers }), filters ?? {})
  const scored = rank(enforced.results, {
    query: baseQuery,
    subQueries: queries,
    weights: classification ? classification.weights : null,
    domainBoost: req.domainBoost,
    now,
    explain: req.explain,
  })
  // Scored searches only: without an intent the fused order is the original skill's v1 output, kept as it was.
  const ranked: ((typeof scored)[number] & { duplicates?: NearDuplicate[]; demotedFrom?: number })[] = classification
    ? // A site the query restricts to counts as named: `site:github.com` is no reason to push github.com down.
      diversifySites(collapseNearDuplicates(scored, { providers }), {
        query: [baseQuery, ...(filters?.includeDomains ?? [])].join(' '),
      })
    : scored
  const results: SearchResultOut[] = ranked.map((r) => ({
    title: r.title,
    url: r.url,
    snippet: r.snippet,
    published_date: r.publishedAt,
    source: r.source,
    sources: r.sources,
    ...(r.score !== undefined && { score: r.score }),
    ...(r.dateUnverified && { date_unverified: true as const }),
    ...(r.duplicates && {
      duplicates: r.duplicates.map((d) => ({ url: d.url, title: d.title, sources: d.sources })),
    }),
    ...(req.explain &&
      r.explain && {
        explain: {
          ...r.explain,
          ...(r.duplicates && { near_duplicates: r.duplicates.length }),
          ...(r.demotedFrom !== undefined && { demoted_from: r.demotedFrom }),
        },
      }),
  }))
  const answerFrom = answerOrder.map((p) => outcomes.find((o) => o.provider === p && o.answer)).find(Boolean)
  return {
    results,
    enforcement: {
      dropped: enforced.dropped,
      dateUnverified: results.filter((r) => r.date_unverified).length,
      unchecked: enforced.unchecked,
    },
    ...(answerFrom?.answer && { answer: answerFrom.answer, answer_source: answerFrom.provider }),
  }
}
