import type { IntentClassification } from '@search-layer/intent'

/**
 * The signals a response reports for an `auto` intent: when the learned model decided, the features it weighed
 * most come first (`lang: "model"`, term such as `words "stable yet"`), then the rules' signal words.
 */
export function reportedSignals(
  c: IntentClassification,
): { intent: IntentClassification['intent']; term: string; lang: string }[] {
  const model = c.model?.decided
    ? c.model.features.map((f) => ({ intent: c.intent, term: f.feature, lang: 'model' }))
    : []
  return [...model, ...c.signals]
}
