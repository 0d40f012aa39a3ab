import type {
  Freshness,
  Intent,
  Mode,
  ProviderErrorKind,
  ProviderName,
  QueryFilterKind,
  QueryOperator,
} from '@search-layer/core'

/** One result as callers see it; field names match the original skill's JSON output. */
export interface SearchResultOut {
  title: string
  url: string
  snippet: string
  published_date: string | null
  /** "brave, exa" */
  source: string
  sources: ProviderName[]
  /** Present when the results were scored (an intent applied). */
  score?: number
  /** A date filter is in force and this result has no date: kept, but not known to be in the range. */
  date_unverified?: true
  /** The same page under other URLs (syndication, mirrors, print/AMP copies), folded into this result. */
  duplicates?: { url: string; title: string; sources: ProviderName[] }[]
  /**
   * With `explain`: the score components, plus `near_duplicates` (how many copies were folded in) and `demoted_from`
   * (the 1-based place before site diversity moved it down).
   */
  explain?: Record<string, number>
}

/**
 * Query operators and request filters in a search: what was parsed, which filters each called provider applied
 * natively (the rest were stripped from what it was sent) and what enforcement on the merged results dropped.
 */
export interface OperatorReport {
  /** The operators as typed, e.g. `{ name: 'site', value: 'github.com', raw: 'site:github.com' }`. */
  parsed: QueryOperator[]
  /** The filters in force (operators and the request's `includeDomains`/`excludeDomains`). */
  filters: QueryFilterKind[]
  /** Per provider called: filters it applied through a native parameter or operator. */
  native: Record<ProviderName, QueryFilterKind[]>
  /** Per provider called: filters it was not sent (its query text had the operators removed). */
  stripped: Record<ProviderName, QueryFilterKind[]>
  /** Merged results enforcement removed, in all and by the filter they failed. */
  dropped: number
  dropped_by: Record<string, number>
  /** Results kept under a date filter without a date (`date_unverified` on each). */
  date_unverified: number
  /** Filters enforcement could not check (`lang` for a Latin-script language; phrases are never checked). */
  unchecked?: string[]
}

/** How one provider fared in one search. */
export interface ProviderReport {
  status: 'ok' | 'error' | 'skipped'
  /** Raw results received (before deduplication). */
  results: number
  /** Longest call, in ms. */
  ms: number
  calls: number
  /** Why it was skipped (not configured, not in this mode, cooling down, budget). */
  reason?: string
  /** The provider it stood in for. */
  fallback_for?: ProviderName
  error?: { kind: ProviderErrorKind; message: string }
  cost?: { usd?: number; credits?: number }
}

export interface SearchResponse {
  query: string
  mode: Mode
  intent: Intent | null
  /** How the intent was decided. */
  intent_source: 'auto' | 'explicit' | 'none'
  /** Who classified an `auto` intent: the rules, or the model when the rules were unsure (`intentModel`). */
  intent_by?: 'rules' | 'llm'
  confidence?: number
  /** Signal words (`lang` en/zh); when the learned classifier decided, the features it weighed first (`lang` "model"). */
  signals?: { intent: Intent; term: string; lang: string }[]
  queries: string[]
  count: number
  results: SearchResultOut[]
  answer?: string
  answer_source?: ProviderName
  freshness_filter: Freshness | null
  /** Present when the query had operators or the request had domain filters; see `OperatorReport`. */
  operators?: OperatorReport
  providers: Record<ProviderName, ProviderReport>
  /** Some providers failed or did not answer in time. */
  partial: boolean
  cached: boolean
  warnings: string[]
  /** Present when no search engine key is set and only keyless sources answered: what to set for more. */
  keyless_only?: KeylessOnlyNotice
  timing: { total_ms: number }
}

/** Only keyless sources answered (no engine is configured): which, and the key variables that would add engines. */
export interface KeylessOnlyNotice {
  /** The sources that answered, e.g. `['duckduckgo', 'wikipedia']`. */
  sources: ProviderName[]
  /** The engines' key variables, from their definitions, e.g. `['BRAVE_API_KEY', 'EXA_API_KEY']`. */
  set: string[]
  /** One sentence for people: `only keyless sources were used (duckduckgo); set BRAVE_API_KEY … for more`. */
  message: string
}

/** A provider-call progress event (for terminals, MCP progress and logs). */
export type SearchProgress =
  | { type: 'started'; provider: ProviderName; query: string }
  | { type: 'done'; provider: ProviderName; query: string; results: number; ms: number }
  | { type: 'failed'; provider: ProviderName; query: string; kind: ProviderErrorKind; message: string; ms: number }
  | { type: 'skipped'; provider: ProviderName; reason: string }
