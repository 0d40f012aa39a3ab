import type { Freshness, Intent, Mode, ProviderName } from '@search-layer/core'
import type { IntentClassification } from '@search-layer/intent'
import type { ParsedSearchRequest, SearchRequest } from './request.js'
import type { ProviderReport, SearchProgress, SearchResponse, SearchResultOut } from './response.js'
import { reportedSignals } from './_intent-signals.js'

/** How one provider takes part in a search, and why. */
export interface PlannedEngine {
  name: ProviderName
  /** `primary`: asked now; `stand-in`: asked because another one is unavailable; `skipped`: not asked. */
  role: 'primary' | 'stand-in' | 'skipped'
  why: string
  /** The provider it stands in for. */
  fallback_for?: ProviderName
  /** Who takes over its queries if it fails. */
  stand_ins: ProviderName[]
}

/** What a search is about to do, sent before any provider is asked. */
export interface SearchPlan {
  type: 'plan'
  query: string
  intent: Intent | null
  intent_source: 'auto' | 'explicit' | 'none'
  /** Who classified an `auto` intent: the rules, or the model when the rules were unsure. */
  intent_by?: 'rules' | 'llm'
  confidence?: number
  signals?: { intent: Intent; term: string; lang: string }[]
  /** One sentence: why this intent (or none). */
  intent_why: string
  mode: Mode
  mode_why: string
  freshness: Freshness | null
  queries: string[]
  engines: PlannedEngine[]
  warnings: string[]
}

/** One event of `SearchLayer.stream`: plan, progress, re-ranked results (after each answer), then the response. */
export type SearchStreamEvent =
  | SearchPlan
  | { type: 'progress'; progress: SearchProgress; elapsed_ms: number }
  | {
      type: 'results'
      results: SearchResultOut[]
      answer?: string
      answer_source?: ProviderName
      /** Providers whose answers are in these results. */
      answered: ProviderName[]
      elapsed_ms: number
    }
  | { type: 'done'; response: SearchResponse }
  /**
   * Before `done`, when the search settled with calls still running that the layer lets finish
   * (`lateCalls: 'finish'`): `progress` and `results` go on after `done`, then `update` ends the stream.
   */
  | { type: 'late'; providers: ProviderName[]; elapsed_ms: number }
  /** The last event after a `late` one: the response with the late engines' results merged in. */
  | { type: 'update'; response: SearchResponse }

/** What `describePlan` reads from a run once its providers are chosen. */
export interface PlanInput {
  req: ParsedSearchRequest
  baseQuery: string
  intentSetting: string
  classification: IntentClassification | null
  classifiedBy?: 'rules' | 'llm'
  mode: Mode
  freshness: Freshness | null
  queries: string[]
  reports: Record<ProviderName, ProviderReport>
  active: ReadonlyMap<ProviderName, ProviderName | undefined>
  fallbacksOf: (name: ProviderName) => ProviderName[]
  /** Why a primary is asked when it is not simply the mode's (a vertical, a keyless fallback). */
  whyAsked?: (name: ProviderName) => string | undefined
  warnings: readonly string[]
}

function intentWhy(input: PlanInput): string {
  const { intentSetting, classification, req } = input
  if (intentSetting === 'none')
    return req.intent === 'none'
      ? 'intent "none" was asked for: providers\' fused order, no scores'
      : "a mode was set without an intent: providers' fused order, no scores"
  if (intentSetting !== 'auto') return `intent "${intentSetting}" was set by the caller`
  if (input.classifiedBy === 'llm')
    return `the rules were unsure, so the intent model decided "${classification?.intent}" (confidence ${classification?.confidence.toFixed(2)})`
  const signals = classification ? reportedSignals(classification) : []
  const confidence = classification ? ` (confidence ${classification.confidence.toFixed(2)})` : ''
  if (signals.length === 0)
    return `no intent signal in the query: "${classification?.intent}" is the default${confidence}`
  const terms = signals.slice(0, 3).map((s) => (s.lang === 'model' ? `model: ${s.term}` : `"${s.term}" → ${s.intent}`))
  return `${terms.join(', ')}${confidence}`
}

/** Builds the plan event from a run's decisions (pure). */
export function describePlan(input: PlanInput): SearchPlan {
  const { req, classification, mode, reports, active, fallbacksOf } = input
  const modeWhy = req.mode
    ? `mode "${mode}" was set by the caller`
    : classification
      ? `${classification.intent} searches use ${mode} mode`
      : `${mode} is the default mode`
  const engines = (Object.keys(reports) as ProviderName[]).map((name): PlannedEngine => {
    const report = reports[name]!
    const stand_ins = fallbacksOf(name)
    if (active.has(name)) {
      const standIn = active.get(name)
      return standIn
        ? { name, role: 'stand-in', why: `stands in for ${standIn}`, fallback_for: standIn, stand_ins }
        : {
            name,
            role: 'primary',
            why: req.sources ? 'chosen in sources' : (input.whyAsked?.(name) ?? `${mode} mode asks it`),
            stand_ins,
          }
    }
    return {
      name,
      role: 'skipped',
      why: report.reason ?? 'not used',
      ...(report.fallback_for && { fallback_for: report.fallback_for }),
      stand_ins,
    }
  })
  return {
    type: 'plan',
    query: input.baseQuery,
    intent: classification?.intent ?? null,
    intent_source: input.intentSetting === 'auto' ? 'auto' : input.intentSetting === 'none' ? 'none' : 'explicit',
    ...(input.classifiedBy && { intent_by: input.classifiedBy }),
    ...(classification &&
      input.intentSetting === 'auto' && {
        confidence: classification.confidence,
        signals: reportedSignals(classification),
      }),
    intent_why: intentWhy(input),
    mode,
    mode_why: modeWhy,
    freshness: input.freshness,
    queries: input.queries,
    engines,
    warnings: [...input.warnings],
  }
}

/** The plan as a response tells it, for searches answered without a run of their own (cache hits, joined runs). */
function planFromResponse(response: SearchResponse): SearchPlan {
  return {
    type: 'plan',
    query: response.query,
    intent: response.intent,
    intent_source: response.intent_source,
    ...(response.intent_by && { intent_by: response.intent_by }),
    ...(response.confidence !== undefined && { confidence: response.confidence }),
    ...(response.signals && { signals: response.signals }),
    intent_why: response.cached ? 'answered from the cache' : 'answered by an identical search already running',
    mode: response.mode,
    mode_why: response.cached ? 'answered from the cache' : 'answered by an identical search already running',
    freshness: response.freshness_filter,
    queries: response.queries,
    engines: (Object.keys(response.providers) as ProviderName[]).map((name) => {
      const report = response.providers[name]!
      return {
        name,
        role: report.status === 'skipped' ? 'skipped' : report.fallback_for ? 'stand-in' : 'primary',
        why: report.reason ?? (report.fallback_for ? `stands in for ${report.fallback_for}` : 'asked'),
        ...(report.fallback_for && { fallback_for: report.fallback_for }),
        stand_ins: [],
      }
    }),
    warnings: [],
  }
}

type Search = (
  request: SearchRequest,
  options: {
    signal?: AbortSignal
    onProgress?: (event: SearchProgress) => void
    onStream?: (event: SearchStreamEvent) => void
  },
) => Promise<SearchResponse>

/**
 * Turns a search with an `onStream` callback into an async iterator. Events after the response (a late re-rank)
 * are dropped, unless the run said calls run on (`late`): then the stream goes on until their `update`. A search
 * answered without a run of its own still yields plan, results and done, in that order.
 * Breaking out of the loop does not cancel the search: pass a `signal` for that.
 */
export async function* streamSearch(
  search: Search,
  request: SearchRequest,
  options: { signal?: AbortSignal; onProgress?: (event: SearchProgress) => void } = {},
): AsyncGenerator<SearchStreamEvent, void, undefined> {
  const queue: SearchStreamEvent[] = []
  let wake: (() => void) | undefined
  let finished = false
  let failure: { error: unknown } | undefined
  let planned = false
  // The run settled with calls that run on: the stream stays open after `done` until their `update`.
  let runsOn = false
  let doneSent = false
  // An `update` that comes before `done` (the response still on its way to the caller) waits for it.
  let heldUpdate: SearchStreamEvent | undefined
  // Providers skipped while the plan is made report before it; the plan comes first and already says why.
  const beforePlan: SearchStreamEvent[] = []
  const push = (event: SearchStreamEvent) => {
    if (finished) return
    if (event.type === 'late') runsOn = true
    if (event.type === 'update' && !doneSent) {
      heldUpdate = event
      return
    }
    if (!planned && event.type === 'progress') {
      beforePlan.push(event)
      return
    }
    if (event.type === 'plan') planned = true
    queue.push(event, ...(event.type === 'plan' ? beforePlan.splice(0) : []))
    if (event.type === 'update') finished = true
    wake?.()
  }
  search(request, { ...options, onStream: push }).then(
    (response) => {
      if (!planned) {
        push(planFromResponse(response))
        push({
          type: 'results',
          results: response.results,
          ...(response.answer && { answer: response.answer }),
          ...(response.answer_source && { answer_source: response.answer_source }),
          answered: Object.entries(response.providers)
            .filter(([, report]) => report.status === 'ok')
            .map(([name]) => name),
          elapsed_ms: response.timing.total_ms,
        })
      }
      push({ type: 'done', response })
      doneSent = true
      if (heldUpdate) push(heldUpdate)
      else if (!runsOn) finished = true
      wake?.()
    },
    (error: unknown) => {
      failure = { error }
      finished = true
      wake?.()
    },
  )
  while (true) {
    const event = queue.shift()
    if (event) {
      yield event
      continue
    }
    if (finished) {
      if (failure) throw failure.error
      return
    }
    await new Promise<void>((resolve) => {
      wake = resolve
    })
    wake = undefined
  }
}
