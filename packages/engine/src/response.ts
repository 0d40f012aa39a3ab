import type { Freshness, Intent, Mode, ProviderErrorKind, ProviderName } from '@search-layer/core'

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
  /** The same page under other URLs (syndication, mirrors, print/AMP copies), folded into this result. */
  duplicates?: { url: string; title: string; sources: ProviderName[] }[]
  /**
   * With `explain`: the score components, plus `near_duplicates` (how many copies were folded in) and `demoted_from`
   * (the 1-based place before site diversity moved it down).
   */
  explain?: Record<string, number>
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
  confidence?: number
  signals?: { intent: Intent; term: string; lang: string }[]
  queries: string[]
  count: number
  results: SearchResultOut[]
  answer?: string
  answer_source?: ProviderName
  freshness_filter: Freshness | null
  providers: Record<ProviderName, ProviderReport>
  /** Some providers failed or did not answer in time. */
  partial: boolean
  cached: boolean
  warnings: string[]
  timing: { total_ms: number }
}

/** A provider-call progress event (for terminals, MCP progress and logs). */
export type SearchProgress =
  | { type: 'started'; provider: ProviderName; query: string }
  | { type: 'done'; provider: ProviderName; query: string; results: number; ms: number }
  | { type: 'failed'; provider: ProviderName; query: string; kind: ProviderErrorKind; message: string; ms: number }
  | { type: 'skipped'; provider: ProviderName; reason: string }
