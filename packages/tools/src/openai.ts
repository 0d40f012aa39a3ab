import type { ToolResult } from './results.js'
import { type JsonSchemaObject, toolJsonSchema } from './json-schema.js'
import { type ToolSet, type ToolSetOptions, buildToolSet, runTool } from './toolset.js'
import type { ToolExecutors } from './executors.js'

/** A Chat Completions tool: `{type: 'function', function: {name, description, parameters, strict}}`. */
export interface OpenAiChatTool {
  type: 'function'
  function: { name: string; description: string; parameters: JsonSchemaObject; strict: boolean }
}

/** A Responses API function tool: `{type: 'function', name, description, parameters, strict}`. */
export interface OpenAiResponsesTool {
  type: 'function'
  name: string
  description: string
  parameters: JsonSchemaObject
  strict: boolean
}

/** A tool call from a Chat Completions message (`message.tool_calls[n]`). */
export interface OpenAiToolCall {
  id: string
  type?: string
  function: { name: string; arguments: string }
}

/** A `function_call` output item from the Responses API. */
export interface OpenAiFunctionCall {
  type?: 'function_call'
  call_id: string
  name: string
  arguments: string
}

/** Options of `openAiTools`. */
export interface OpenAiToolsOptions extends ToolSetOptions {
  /** Emit OpenAI strict-mode schemas (every property required, optional ones nullable). Default true. */
  strict?: boolean
}

/** The tools in both OpenAI flavours, with runners that turn a model's call into the message to send back. */
export interface OpenAiTools {
  /** For `chat.completions.create({ tools })`. */
  tools: OpenAiChatTool[]
  /** For `responses.create({ tools })`. */
  responsesTools: OpenAiResponsesTool[]
  /** Runs a Chat Completions tool call → `{role: 'tool', tool_call_id, content}`. Never throws. */
  runToolCall(
    call: OpenAiToolCall,
    signal?: AbortSignal,
  ): Promise<{ role: 'tool'; tool_call_id: string; content: string; result: ToolResult }>
  /** Runs a Responses `function_call` item → `{type: 'function_call_output', call_id, output}`. Never throws. */
  runFunctionCall(
    call: OpenAiFunctionCall,
    signal?: AbortSignal,
  ): Promise<{ type: 'function_call_output'; call_id: string; output: string; result: ToolResult }>
  executors: ToolExecutors
}

/** Builds the OpenAI tool definitions (from the same zod schemas as every other format) and their runners. */
export async function openAiTools(options: OpenAiToolsOptions = {}): Promise<OpenAiTools> {
  const set: ToolSet = await buildToolSet(options)
  const strict = options.strict ?? true
  const defs = set.definitions.map((d) => ({
    name: d.name,
    description: d.description,
    parameters: toolJsonSchema(d.inputSchema, { strict }),
  }))
  return {
    tools: defs.map((d) => ({ type: 'function', function: { ...d, strict } })),
    responsesTools: defs.map((d) => ({ type: 'function', ...d, strict })),
    executors: set.executors,
    async runToolCall(call, signal) {
      const result = await runTool(set.executors, call.function.name, call.function.arguments, signal)
      return { role: 'tool', tool_call_id: call.id, content: result.content, result }
    },
    async runFunctionCall(call, signal) {
      const result = await runTool(set.executors, call.name, call.arguments, signal)
      return { type: 'function_call_output', call_id: call.call_id, output: result.content, result }
    },
  }
}
