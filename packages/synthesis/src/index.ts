export { synthesize } from './synthesize.js'
export { synthesizeWithLlm, llmConfigFromEnv } from './llm.js'
export { toMarkdown, toText, toJSON, estimateTokens } from './render.js'
export { SynthesisInputSchema, SynthesisResultInputSchema } from './types.js'
export type {
  Confidence,
  Conflict,
  ConflictClaim,
  LlmEndpoint,
  LlmFallbackReason,
  Synthesis,
  SynthesisAnswer,
  SynthesisGroup,
  SynthesisInput,
  SynthesisJson,
  SynthesisLead,
  SynthesisPassageInput,
  SynthesisLanguage,
  SynthesisOptions,
  SynthesisResultInput,
  SynthesizedResult,
  SynthesizeWithLlmOptions,
} from './types.js'
