export { startEmulator, EMULATOR_MODELS } from './emulator.js'
export { DEFAULT_KEYS, DEFAULT_NOW, userKeyVariables, zeroKeyEnv } from './keys.js'
export { corpusFor, queryTerms, vendorUrl, hostMatches, snippet } from './corpus.js'
export type { CorpusQueryOptions, RankedDoc, SearchVendor } from './corpus.js'
export { CORPUS } from './corpus-data.js'
export type { CorpusDoc } from './corpus-data.js'
export type {
  EmulatedService,
  KeyedService,
  EmulatorOptions,
  Fault,
  RecordedReply,
  RecordedRequest,
  GithubIssueSpec,
  PageSpec,
  LlmRequest,
  LlmHandler,
  LlmMessage,
  LlmReply,
  LlmScriptStep,
  LlmSeenToolCall,
  LlmToolCall,
  Emulator,
} from './types.js'
export { parseEmulatorArgs, runEmulatorCli } from './cli.js'
export type { EmulatorCliArgs, CliIo } from './cli.js'
export { measureGrowth, sizedText, ADVERSARIAL_TEXTS, LINEAR_GROWTH_LIMIT } from './growth.js'
export type { Growth, GrowthOptions } from './growth.js'
export { longestLoopDelay } from './loop-delay.js'
export { faultTimeLimit, readRecorded, providerFailure, TAG_OR_ENTITY } from './recorded.js'
export type { RecordedResponse } from './recorded.js'
export { pluginProvider } from './plugin-provider.js'
export { braveAnswer, BRAVE_PAID_PLAN_HEADERS } from './brave-answer.js'
export type { BraveWebResult } from './brave-answer.js'
