import type { Evidence } from '@search-layer/evidence'
import { type ProviderName, RESULT_LIMITS, type RejectReason } from '@search-layer/core'
import type { IntentClassification } from '@search-layer/intent'
import type { NearDuplicate, ResultFilters } from '@search-layer/scoring'
import type { CallOutcome, FanOutResult } from './_fan-out.js'
import type { EnforcementSummary } from './_operators.js'
import type { Strategy } from './_strategy.js'
import type { Roster } from './_roster.js'
import type { ParsedSearchRequest } from './request.js'
import type { KeylessOnlyNotice, OperatorReport, ProviderReport, SearchResponse, SearchResultOut } from './response.js'
import { reportedSignals } from './_intent-signals.js'

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
 * The written answer that leads: the preferred provider's, to the earliest query it answered (the user's own
 * first). By query, not by arrival: which call lands first depends on timing (call order, a store's write), and the
 * same search, replayed from cassettes, must lead with the same answer.
 */
function leadAnswer(
  outcomes: readonly CallOutcome[],
  answerOrder: readonly ProviderName[],
  queries: readonly string[],
): CallOutcome | undefined {
  const rank = (query: string) => {
    const at = queries.indexOf(query)
    return at < 0 ? queries.length : at
  }
  for (const provider of answerOrder) {
    const answered = outcomes.filter((o) => o.provider === provider && o.answer)
    if (answered.length > 0) return answered.reduce((best, o) => (rank(o.query) < rank(best.query) ? o : best))
  }
  return undefined
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
  const answerFrom = leadAnswer(outcomes, answerOrder, queries)
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

/**
 * Fills in each active provider's report from its calls: results, longest call, cost, and an error when every call
 * failed (or some did, or did not answer before the deadline). A provider whose calls were still running when the
 * search settled is `late` (none of them answered) or has `late_calls`: never an error.
 */
export function reportCalls(
  roster: Pick<Roster, 'reports' | 'active'>,
  { outcomes, launched, late }: FanOutResult,
  { deadlineMs, elapsedMs, now }: { deadlineMs: number; elapsedMs: number; now: number },
): void {
  for (const name of roster.active.keys()) {
    const mine = outcomes.filter((o) => o.provider === name)
    const okCalls = mine.filter((o) => o.results)
    const failed = mine.filter((o) => o.error)
    const lateCalls = late.filter((c) => c.provider === name)
    const unanswered = Math.max(0, (launched.get(name) ?? 0) - mine.length - lateCalls.length)
    const report = roster.reports[name]!
    // Filled in afresh: a search whose late calls finished reports again over what it settled with.
    report.status = 'ok'
    delete report.late_calls
    delete report.error
    report.calls = mine.length + unanswered + lateCalls.length
    report.results = okCalls.reduce((n, o) => n + o.results!.length, 0)
    report.ms = mine.length ? Math.max(...mine.map((o) => o.ms)) : elapsedMs
    if (lateCalls.length > 0) report.late_calls = lateCalls.length
    const usd = okCalls.reduce((n, o) => n + (o.cost?.usd ?? 0), 0)
    const credits = okCalls.reduce((n, o) => n + (o.cost?.credits ?? 0), 0)
    if (usd || credits) report.cost = { ...(usd && { usd: Math.round(usd * 1e6) / 1e6 }), ...(credits && { credits }) }
    const last = failed.at(-1)?.error
    if (okCalls.length === 0 && lateCalls.length > 0) {
      report.status = 'late'
      report.ms = now - Math.min(...lateCalls.map((c) => c.startedAt))
      if (last)
        report.error = { kind: last.kind, message: `${failed.length} of ${report.calls} calls failed: ${last.message}` }
    } else if (okCalls.length === 0) {
      report.status = 'error'
      report.error = last
        ? { kind: last.kind, message: last.message }
        : { kind: 'timeout', message: `${name} did not answer before the ${deadlineMs} ms deadline` }
    } else if (failed.length || unanswered) {
      report.error = last
        ? { kind: last.kind, message: `${failed.length} of ${report.calls} calls failed: ${last.message}` }
        : { kind: 'timeout', message: `${unanswered} of ${report.calls} calls did not answer before the deadline` }
    }
  }
}

const REJECT_WORDS: Record<RejectReason, string> = {
  not_an_object: 'not a result object',
  bad_url: 'no http(s) URL',
  url_too_long: `a URL over ${RESULT_LIMITS.url} characters`,
}

/** One warning per provider whose results failed the checks: how many were dropped, and why. */
export function rejectedResultWarnings(outcomes: readonly CallOutcome[]): string[] {
  const byProvider = new Map<ProviderName, Partial<Record<RejectReason, number>>>()
  for (const { provider, rejected } of outcomes) {
    if (!rejected) continue
    const sum = byProvider.get(provider) ?? {}
    for (const [reason, n] of Object.entries(rejected) as [RejectReason, number][]) sum[reason] = (sum[reason] ?? 0) + n
    byProvider.set(provider, sum)
  }
  return [...byProvider].map(([provider, sum]) => {
    const parts = (Object.entries(sum) as [RejectReason, number][]).map(([reason, n]) => `${n} ${REJECT_WORDS[reason]}`)
    const total = Object.values(sum).reduce((a, b) => a + b, 0)
    return `${provider}: dropped ${total} result${total === 1 ? '' : 's'} that failed validation (${parts.join(', ')})`
  })
}

/** The search's response from its strategy, the assembled results and the providers' reports (pure). */
export function buildResponse({
  strategy,
  queries,
  assembled,
  operatorReport,
  reports,
  partial,
  warnings,
  keylessOnly,
  evidence,
  totalMs,
}: {
  strategy: Strategy
  /** The queries actually run (after the call cap). */
  queries: string[]
  assembled: Assembled
  /** What the query operators did (`describeOperators`), when any filter was in force. */
  operatorReport?: OperatorReport
  reports: Record<ProviderName, ProviderReport>
  partial: boolean
  warnings: readonly string[]
  keylessOnly?: KeylessOnlyNotice
  /** What reading the top results found, when the request asked for it. */
  evidence?: Evidence
  totalMs: number
}): SearchResponse {
  const { classification, intentSetting } = strategy
  const { results, enforcement: _reported, ...answer } = assembled
  return {
    query: strategy.baseQuery,
    mode: strategy.mode,
    intent: classification?.intent ?? null,
    intent_source: intentSetting === 'auto' ? 'auto' : intentSetting === 'none' ? 'none' : 'explicit',
    ...(strategy.classifiedBy && { intent_by: strategy.classifiedBy }),
    ...(classification &&
      intentSetting === 'auto' && { confidence: classification.confidence, signals: reportedSignals(classification) }),
    queries,
    count: results.length,
    results,
    ...answer,
    freshness_filter: strategy.freshness,
    ...(operatorReport && { operators: operatorReport }),
    providers: reports,
    partial,
    cached: false,
    warnings: [...new Set(warnings)],
    ...(keylessOnly && { keyless_only: keylessOnly }),
    ...(evidence && { reads: evidence.reads, passages: evidence.passages }),
    timing: { total_ms: totalMs },
  }
}
