import type { Freshness, Intent, Mode } from '@search-layer/core'
import { expandQuery } from '@search-layer/expand'
import { type IntentClassification, classifyIntent, strategyFor } from '@search-layer/intent'
import { type SearchOperators, readSearchOperators } from './_operators.js'
import type { ParsedSearchRequest } from './request.js'

/** What a search is about, decided from the request alone: intent, mode, freshness and sub-queries. */
export interface Strategy {
  /** The query the intent is read from and results are scored against. */
  baseQuery: string
  /** `auto` (classified), `none` (v1 behaviour: fused order, no scores) or the intent the caller set. */
  intentSetting: 'auto' | 'none' | Intent
  classification: IntentClassification | null
  /** Who classified an `auto` intent: the rules, or the model when the rules were unsure (`refineIntent`). */
  classifiedBy?: 'rules' | 'llm'
  mode: Mode
  freshness: Freshness | null
  /** Every sub-query, before the call cap trims them. */
  queries: string[]
  /** The query operators (site:, after:, "phrase"…) read from the request, as filters. */
  operators: SearchOperators
}

/**
 * Reads the query operators, classifies the request and expands it into sub-queries (pure). An explicit mode without
 * an intent keeps the original skill's v1 behaviour: no classification, no expansion, no scores. Throws `InputError`
 * for an unusable operator.
 */
export function planStrategy(req: ParsedSearchRequest, now: Date, byModel?: IntentClassification): Strategy {
  // Operators (site:, after:, "phrase"…) become filters; the words left are what is classified and searched.
  const operators = readSearchOperators(req, now)
  const baseQuery = operators.baseQuery
  const intentSetting = req.intent ?? (req.mode ? 'none' : 'auto')
  const classification = intentSetting === 'auto' && byModel ? byModel : classificationFor(intentSetting, baseQuery)
  return {
    baseQuery,
    intentSetting,
    classification,
    ...(intentSetting === 'auto' && { classifiedBy: byModel ? 'llm' : 'rules' }),
    mode: req.mode ?? classification?.mode ?? 'deep',
    freshness: operators.dateRange ?? req.freshness ?? classification?.freshness ?? null,
    queries: subQueries(operators, baseQuery, classification, req.maxQueries, now),
    operators,
  }
}

function classificationFor(intentSetting: Strategy['intentSetting'], baseQuery: string): IntentClassification | null {
  if (intentSetting === 'auto') return classifyIntent(baseQuery)
  if (intentSetting === 'none') return null
  const row = strategyFor(intentSetting)
  return {
    intent: row.intent,
    mode: row.mode,
    freshness: row.freshness,
    weights: row.weights,
    confidence: 1,
    uncertain: false,
    signals: [],
  }
}

function subQueries(
  operators: SearchOperators,
  baseQuery: string,
  classification: IntentClassification | null,
  maxQueries: number,
  now: Date,
): string[] {
  if (operators.queries) return [...new Set(operators.queries)]
  if (!classification) return [baseQuery]
  const expanded = expandQuery(baseQuery, classification, { maxQueries, now: () => now })
  const queries = expanded.queries.map((q) => q.query)
  return queries.length > 0 ? queries : [baseQuery]
}
