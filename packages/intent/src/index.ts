export { classifyIntent, strategyFor, INTENT_PRECEDENCE } from './classify.js'
export type {
  ClassifyIntentOptions,
  IntentClassification,
  IntentSignal,
  IntentStrategy,
  IntentWeights,
} from './classify.js'
export { classifyIntentWithLlm } from './llm.js'
export type { ClassifyIntentWithLlmOptions, LlmEndpoint, LlmIntentClassification } from './llm.js'
