export { classifyIntent, strategyFor, INTENT_PRECEDENCE, UNCERTAIN_BELOW } from './classify.js'
export type {
  ClassifyIntentOptions,
  IntentClassification,
  IntentSignal,
  IntentStrategy,
  IntentUncertainty,
  IntentWeights,
} from './classify.js'
export { classifyIntentWithLlm } from './llm.js'
export type { ClassifyIntentWithLlmOptions, LlmEndpoint, LlmIntentClassification } from './llm.js'
