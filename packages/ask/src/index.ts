export { ask } from './ask.js'
export type { AskOptions } from './ask.js'
export {
  ASK_LIMITS,
  AskBudgetSchema,
  AskEventSchema,
  AskInputSchema,
  AskResultSchema,
  AskStepSchema,
  AskUsageSchema,
  ConversationIdSchema,
} from './schema.js'
export type {
  AskBudget,
  AskEvent,
  AskInput,
  AskResult,
  AskStep,
  AskUsage,
} from './schema.js'
export { conversationsDir, listConversations, loadConversation } from './store.js'
export type { Conversation, ConversationSummary } from './store.js'
export { renderTurn, renderTranscript } from './transcript.js'
