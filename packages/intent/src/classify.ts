import { type FreshnessWindow, INTENTS, type Intent, type Mode } from '@search-layer/core'
import { type Lang, SIGNALS, STRATEGIES } from './_data.js'
import { combineWithModel, type ModelOpinion } from './_combine.js'
import { compileTerms, type NormalizedText, normalize, type TermHit } from './_matcher.js'

/** How search results are weighted when scored; the three weights sum to 1. */
export interface IntentWeights {
  keyword: number
  freshness: number
  authority: number
}

/** One signal phrase found in the query. `term` is the phrase as listed in the signal data (or the text a pattern matched). */
export interface IntentSignal {
  intent: Intent
  term: string
  lang: 'en' | 'zh'
}

/**
 * Why a classification is unsure: nothing matched, only barely-meaningful words matched, two intents scored
 * (almost) the same, or (with `classifyIntentWithLlm`) the model itself said it was unsure.
 */
export type IntentUncertainty = 'no-signal' | 'weak-signal' | 'close-call' | 'model-unsure'

/** The result of classifying one query. */
export interface IntentClassification {
  intent: Intent
  mode: Mode
  /** The freshness window to search with, or null for no restriction. */
  freshness: FreshnessWindow | null
  weights: IntentWeights
  /** 0..1: how clearly the signals pointed at one intent. Below `UNCERTAIN_BELOW` the answer is a guess. */
  confidence: number
  /** True when `confidence` is below `UNCERTAIN_BELOW`: a caller with a model should ask it (see `classifyIntentWithLlm`). */
  uncertain: boolean
  /** Why the rules are unsure; absent when they are not. */
  uncertainty?: IntentUncertainty
  signals: IntentSignal[]
  /** What the learned model said, whether it decided, and the features it weighed most (see `_combine.ts`). */
  model?: ModelOpinion
}

/** One row of `references/intent-strategies.json`. */
export interface IntentStrategy {
  intent: Intent
  mode: Mode
  /** The default window; the query's time words may pick another from `freshnessOptions`. */
  freshness: FreshnessWindow | null
  freshnessOptions: readonly FreshnessWindow[]
  weights: IntentWeights
}

/** Options for `classifyIntent`. */
export interface ClassifyIntentOptions {
  /** Signals below this weight are ignored (0..1). Default 0: every listed signal counts. */
  minSignalWeight?: number
  /** False: the rules alone, without the learned model (the baseline the bench compares with). Default true. */
  model?: boolean
}

/**
 * When two intents score the same, the more specific one wins. Order and reasons: references/intent-guide.md.
 */
export const INTENT_PRECEDENCE: readonly Intent[] = [
  'comparison',
  'news',
  'resource',
  'tutorial',
  'status',
  'factual',
  'exploratory',
]

/** Confidence below this means the rules are guessing: no signal, only weak words, or a close call. */
export const UNCERTAIN_BELOW = 0.65

const WINDOW_ORDER: readonly FreshnessWindow[] = ['pd', 'pw', 'pm', 'py']
const DEFAULT_CONFIDENCE = 0.3
// A best score under this comes from words like "about", "or", "why" alone: never more than a guess.
const WEAK_SCORE = 0.5
const WEAK_CONFIDENCE_CAP = 0.6
const EXTRA_SIGNAL_BONUS = 0.1
const MAX_EXTRA_BONUS = 0.3
// Queries longer than this are scanned on their first part only; the limit keeps worst-case time flat.
const MAX_SCAN_CHARS = 4096

interface SignalPayload {
  intent: Intent | null
  weight: number
  /** A site or product name: counts only when nothing else in the query signals an intent. */
  site?: boolean
}

const signalMatcher = compileTerms<SignalPayload>(
  [
    ...(['en', 'zh'] as const).flatMap((lang) =>
      SIGNALS.blocked[lang].map((term) => ({ term, lang, payload: { intent: null, weight: 0 } })),
    ),
    ...(['en', 'zh'] as const).flatMap((lang) =>
      Object.entries(SIGNALS.sites[lang]).map(([term, weight]) => ({
        term,
        lang,
        payload: { intent: 'resource' as const, weight, site: true },
      })),
    ),
    ...INTENTS.flatMap((intent) =>
      (['en', 'zh'] as const).flatMap((lang) =>
        Object.entries(SIGNALS.intents[intent][lang]).map(([term, weight]) => ({
          term,
          lang,
          payload: { intent, weight },
        })),
      ),
    ),
  ],
  { isShadow: (payload) => payload.intent === null },
)

const patterns = INTENTS.flatMap((intent) =>
  Object.entries(SIGNALS.intents[intent].patterns).map(([name, pattern]) => ({
    intent,
    name,
    // Lower case against lower-cased queries (see checkPattern).
    regex: new RegExp(typeof pattern === 'string' ? pattern : pattern.source, 'u'),
    weight: typeof pattern === 'string' ? 1 : pattern.weight,
  })),
)

const timeMatcher = compileTerms<FreshnessWindow>(
  WINDOW_ORDER.flatMap((window) =>
    (['en', 'zh'] as const).flatMap((lang) =>
      SIGNALS.timeHints[window][lang].map((term) => ({ term, lang, payload: window })),
    ),
  ),
)

/** The strategy row for an intent: mode, default freshness window, allowed windows and scoring weights. */
export function strategyFor(intent: Intent): IntentStrategy {
  const row = STRATEGIES[intent]
  return {
    intent,
    mode: row.mode,
    freshness: row.freshness,
    freshnessOptions: row.freshnessOptions,
    weights: { ...row.weights },
  }
}

/**
 * Classifies a query (English, Chinese or mixed) into one of seven intents and its search strategy.
 * Pure and synchronous; never throws, whatever the string.
 */
export function classifyIntent(query: string, options: ClassifyIntentOptions = {}): IntentClassification {
  const raw = typeof query === 'string' ? query.slice(0, MAX_SCAN_CHARS) : ''
  const input = normalize(raw)
  const minWeight = options.minSignalWeight ?? 0
  const signals: IntentSignal[] = []
  const scores = new Map<Intent, { max: number; count: number }>()
  const add = (intent: Intent, term: string, lang: Lang, weight: number) => {
    if (weight < minWeight) return
    if (!signals.some((s) => s.intent === intent && s.term === term)) signals.push({ intent, term, lang })
    const s = scores.get(intent)
    if (s) {
      s.max = Math.max(s.max, weight)
      s.count++
    } else scores.set(intent, { max: weight, count: 1 })
  }
  const sites: TermHit<SignalPayload>[] = []
  for (const hit of signalMatcher.match(input)) {
    if (hit.payload.site) sites.push(hit)
    else if (hit.payload.intent) add(hit.payload.intent, hit.term, hit.lang, hit.payload.weight)
  }
  for (const p of patterns) {
    const m = p.regex.exec(input.text)
    if (m) add(p.intent, m[0].trim(), 'en', p.weight)
  }
  // "is github down", "set up ssh keys for github": the site is what the question is about, not what it asks for.
  // It still shows in `signals` (after the winner's) so the decision can be explained.
  const siteCounts = scores.size === 0
  for (const hit of sites) {
    if (siteCounts) add('resource', hit.term, hit.lang, hit.payload.weight)
    else if (hit.payload.weight >= minWeight && !signals.some((s) => s.term === hit.term))
      signals.push({ intent: 'resource', term: hit.term, lang: hit.lang })
  }
  const rules = decide(input, signals, scores)
  return options.model === false ? rules : withModel(rules, raw, input, signals)
}

/** The rules' answer combined with the learned model's (`_combine.ts`); a changed intent gets its own strategy. */
function withModel(
  rules: IntentClassification,
  raw: string,
  input: NormalizedText,
  signals: IntentSignal[],
): IntentClassification {
  const { intent, confidence, model } = combineWithModel(rules, raw, input.text, UNCERTAIN_BELOW)
  if (!model.decided) return { ...rules, model }
  return { ...build(intent, confidence, 'model-unsure', input, signals), model }
}

/** Picks the intent from the collected scores, computes confidence and the freshness window. Shared with the LLM path. */
function decide(
  input: NormalizedText,
  signals: IntentSignal[],
  scores: Map<Intent, { max: number; count: number }>,
): IntentClassification {
  const ranked = [...scores.entries()]
    .map(([intent, s]) => ({ intent, score: s.max + Math.min(MAX_EXTRA_BONUS, EXTRA_SIGNAL_BONUS * (s.count - 1)) }))
    .sort((a, b) => b.score - a.score || INTENT_PRECEDENCE.indexOf(a.intent) - INTENT_PRECEDENCE.indexOf(b.intent))
  const top = ranked[0]
  if (!top) return build('exploratory', DEFAULT_CONFIDENCE, 'no-signal', input, signals)
  const runnerUp = ranked[1]?.score ?? 0
  const weak = top.score < WEAK_SCORE
  let confidence = 0.5 + 0.45 * Math.min(1, top.score) - 0.35 * (runnerUp / top.score)
  if (weak) confidence = Math.min(confidence, WEAK_CONFIDENCE_CAP)
  return build(top.intent, confidence, weak ? 'weak-signal' : 'close-call', input, signals)
}

function build(
  intent: Intent,
  rawConfidence: number,
  unsureBecause: IntentUncertainty,
  input: NormalizedText,
  signals: IntentSignal[],
): IntentClassification {
  const row = STRATEGIES[intent]
  const confidence = Math.round(Math.min(1, Math.max(0, rawConfidence)) * 100) / 100
  const uncertain = confidence < UNCERTAIN_BELOW
  return {
    intent,
    mode: row.mode,
    freshness: freshnessFor(intent, input),
    weights: { ...row.weights },
    confidence,
    uncertain,
    ...(uncertain && { uncertainty: unsureBecause }),
    // Signals of the chosen intent first: they explain the decision; the rest show what lost.
    signals: [...signals.filter((s) => s.intent === intent), ...signals.filter((s) => s.intent !== intent)],
  }
}

/** The window for an intent given the query's time words: the narrowest hint, moved to the nearest allowed window. */
export function freshnessFor(intent: Intent, input: NormalizedText): FreshnessWindow | null {
  const row = STRATEGIES[intent]
  if (row.freshnessOptions.length <= 1) return row.freshness
  let hint: number | undefined
  for (const h of timeMatcher.match(input)) {
    const i = WINDOW_ORDER.indexOf(h.payload)
    if (hint === undefined || i < hint) hint = i
  }
  if (hint === undefined) return row.freshness
  let best = row.freshnessOptions[0]!
  for (const option of row.freshnessOptions) {
    const d = Math.abs(WINDOW_ORDER.indexOf(option) - hint)
    const bestD = Math.abs(WINDOW_ORDER.indexOf(best) - hint)
    // Equal distance: the narrower window, because a time word asked for recency.
    if (d < bestD || (d === bestD && WINDOW_ORDER.indexOf(option) < WINDOW_ORDER.indexOf(best))) best = option
  }
  return best
}
