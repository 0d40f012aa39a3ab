import type { Intent } from '@search-layer/core'
import { SIGNALS } from './_data.js'
import { extractFeatures, type Feature } from './_features.js'
import { type CombineThresholds, combineThresholds, type ModelFeature, predict } from './_model.js'

/** The learned model's view of a query, reported in `IntentClassification.model`. */
export interface ModelOpinion {
  intent: Intent
  /** The model's probability for its intent, 0..1. */
  probability: number
  /** True when the model's intent was taken over the rules' answer or the rules were unsure and it agreed. */
  decided: boolean
  /** The features that weighed most for the model's intent (e.g. `words "stable yet"`, `"进展"`, `shape version`). */
  features: ModelFeature[]
}

export interface Combined {
  intent: Intent
  confidence: number
  model: ModelOpinion
}

/**
 * The combination rule. The rules answer when they are sure, unless the model disagrees with probability ≥
 * `override`; when the rules are unsure (no signal, weak words, a close call), the model answers if its probability
 * is ≥ `unsure`. Whoever answers gives the confidence.
 */
export function combine(
  rules: { intent: Intent; confidence: number; uncertain: boolean },
  model: { intent: Intent; probability: number },
  thresholds: CombineThresholds,
): { intent: Intent; confidence: number; decided: boolean } {
  const modelDecides = rules.uncertain
    ? model.probability >= thresholds.unsure
    : model.intent !== rules.intent && model.probability >= thresholds.override
  if (!modelDecides) return { intent: rules.intent, confidence: rules.confidence, decided: false }
  return { intent: model.intent, confidence: model.probability, decided: true }
}

interface RulesAnswer {
  intent: Intent
  confidence: number
  uncertain: boolean
  signals: readonly { intent: Intent; term: string; lang: 'en' | 'zh' }[]
}

/**
 * The model's features for a query. One comes from the rules: the query is only a known site or product name
 * ("hacker news", "知乎"), which a model cannot tell from an unknown topic ("RISC-V") by its letters. As in the
 * rules, a site counts only when nothing else signals an intent ("hacker news top stories today" is news).
 */
export function modelFeatures(rules: RulesAnswer, raw: string, text: string): Feature[] {
  const features = extractFeatures(text, raw)
  const isSite = (s: RulesAnswer['signals'][number]) =>
    s.intent === 'resource' && Object.hasOwn(SIGNALS.sites[s.lang], s.term)
  if (rules.signals.length > 0 && rules.signals.every(isSite)) features.push({ key: 's:site-name', value: 1 })
  return features
}

/** Asks the learned model about a query and combines its answer with the rules'. An empty query stays the rules'. */
export function combineWithModel(rules: RulesAnswer, raw: string, text: string): Combined {
  const features = modelFeatures(rules, raw, text)
  const verdict = predict(features)
  const { intent, confidence, decided } =
    text === '' ? { ...rules, decided: false } : combine(rules, verdict, combineThresholds())
  return {
    intent,
    confidence,
    model: {
      intent: verdict.intent,
      probability: Math.round(verdict.probability * 100) / 100,
      decided,
      features: verdict.features,
    },
  }
}
