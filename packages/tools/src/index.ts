export {
  TOOL_NAMES,
  MAX_RESULTS_CAP,
  MAX_QUERIES,
  WebSearchInputSchema,
  WebFetchInputSchema,
  FetchThreadInputSchema,
  ExtractRefsInputSchema,
  AnswerInputSchema,
  ANSWER_TOOL,
  TOOL_INPUT_SCHEMAS,
  webSearchInputSchemaFor,
} from './schemas.js'
export type {
  ToolName,
  ToolSetName,
  WebSearchInput,
  WebFetchInput,
  FetchThreadInput,
  ExtractRefsInput,
  AnswerInput,
} from './schemas.js'
export { createToolExecutors } from './executors.js'
export { errorResult, DEFAULT_MAX_CHARS } from './results.js'
export type { ToolExecutors, ToolExecutorOptions, ToolCallOptions } from './executors.js'
export type { ToolResult } from './results.js'
export { toolDefinitions, answerToolDefinition, liveSources } from './definitions.js'
export type { ToolDefinition } from './definitions.js'
export { toolJsonSchema, dropNulls } from './json-schema.js'
export type { JsonSchemaObject, ToolJsonSchemaOptions } from './json-schema.js'
export { openAiTools } from './openai.js'
export type {
  OpenAiTools,
  OpenAiToolsOptions,
  OpenAiChatTool,
  OpenAiResponsesTool,
  OpenAiToolCall,
  OpenAiFunctionCall,
} from './openai.js'
export { anthropicTools, runAnthropicToolUse } from './anthropic.js'
export type { AnthropicTools, AnthropicTool, AnthropicToolUseBlock, AnthropicToolResultBlock } from './anthropic.js'
export { runTool, buildToolSet } from './toolset.js'
export { untrustedFrame } from './_untrusted.js'
export type { UntrustedFrame } from './_untrusted.js'
export type { ToolSetOptions, ToolSet } from './toolset.js'
