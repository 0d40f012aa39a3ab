import { INTENTS, type Intent } from '@search-layer/core'
import { SIGNALS } from './_data.js'
import { extractFeatures, type Feature } from './_features.js'
import { type CombineWeights, combineWeights, type ModelFeature, predict, type RulesBand, softmax } from './_model.js'

/** The learned model's view of a query, reported in `IntentClassification.model`. */
export interface ModelOpinion {
  intent: Intent
  /** The model's probability for its intent, 0..1. */
  probability: number
  /** True when the combination changed the rules' answer, or the rules were unsure and it gave the confidence. */
  decided: boolean
  /** The log-odds bonus the rules' answer got, for how sure the rules were (`rulesBand`). */
  rulesBonus: number
  /**
   * The features that weighed most for the answer when the model decided, else for the model's own intent (e.g.
   * `words "stable yet"`, `"进展"`, `an action verb first`).
   */
  features: ModelFeature[]
}

export interface Combined {
  intent: Intent
  confidence: number
  model: ModelOpinion
}

interface RulesVerdict {
  intent: Intent
  confidence: number
  uncertain: boolean
  uncertainty?: string
}

// Rules at least this confident are "certain": their signal words rarely mislead (a bonus of its own).
const CERTAIN_FROM = 0.9

/** How sure the rules were: no signal at all (the default answer), uncertain, sure, or certain. */
export function rulesBand(rules: RulesVerdict): RulesBand {
  if (rules.uncertainty === 'no-signal') return 'none'
  if (rules.uncertain) return 'weak'
  return rules.confidence >= CERTAIN_FROM ? 'certain' : 'sure'
}

/**
 * The combination rule, a product of the two opinions: each intent scores the log of the model's probability, and
 * the rules' intent gets a bonus (log-odds) for the band of the rules' confidence, chosen by cross-validation. The
 * best score answers. The model decided when the answer is not the rules', or when the rules were unsure and the
 * combined probability of their answer reaches `sureFrom` (the model made it sure); then that probability is the
 * confidence. Otherwise the rules' answer stands as they gave it (an unsure one stays unsure, for the same reason).
 */
export function combine(
  rules: RulesVerdict,
  probabilities: readonly number[],
  weights: CombineWeights,
  sureFrom: number,
): { intent: Intent; confidence: number; decided: boolean } {
  const bonus = weights.ruleBonus[rulesBand(rules)]
  const scores = INTENTS.map(
    (intent, c) => Math.log(Math.max(probabilities[c]!, 1e-9)) + (intent === rules.intent ? bonus : 0),
  )
  let best = 0
  for (let c = 1; c < scores.length; c++) if (scores[c]! > scores[best]!) best = c
  const intent = INTENTS[best]!
  const confidence = softmax(scores)[best]!
  if (intent === rules.intent && (!rules.uncertain || confidence < sureFrom))
    return { intent, confidence: rules.confidence, decided: false }
  return { intent, confidence, decided: true }
}

interface RulesAnswer extends RulesVerdict {
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

/**
 * Asks the learned model about a query and combines its answer with the rules' (`sureFrom`: the confidence from
 * which a result is not uncertain). An empty query stays the rules'.
 */
export function combineWithModel(rules: RulesAnswer, raw: string, text: string, sureFrom: number): Combined {
  const features = modelFeatures(rules, raw, text)
  const verdict = predict(features)
  const { intent, confidence, decided } =
    text === '' ? { ...rules, decided: false } : combine(rules, verdict.probabilities, combineWeights(), sureFrom)
  return {
    intent,
    confidence,
    model: {
      intent: verdict.intent,
      probability: Math.round(verdict.probability * 100) / 100,
      decided,
      rulesBonus: combineWeights().ruleBonus[rulesBand(rules)],
      features: verdict.weighedFor(decided ? intent : verdict.intent),
    },
  }
}
