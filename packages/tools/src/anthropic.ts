import { type ToolSetOptions, buildToolSet, runTool } from './toolset.js'
import type { ToolExecutors } from './executors.js'
import type { ToolResult } from './results.js'
import { type JsonSchemaObject, toolJsonSchema } from './json-schema.js'

/** An Anthropic Messages API tool: `{name, description, input_schema}`. */
export interface AnthropicTool {
  name: string
  description: string
  input_schema: JsonSchemaObject
}

/** A `tool_use` content block from an assistant message. */
export interface AnthropicToolUseBlock {
  type?: 'tool_use'
  id: string
  name: string
  input: unknown
}

/** The `tool_result` block to send back in the next user message. */
export interface AnthropicToolResultBlock {
  type: 'tool_result'
  tool_use_id: string
  content: string
  is_error?: boolean
}

/** The Anthropic tools with a runner bound to their executors. */
export interface AnthropicTools {
  /** For `messages.create({ tools })`. */
  tools: AnthropicTool[]
  /** Runs one `tool_use` block → its `tool_result` block. Never throws. */
  run(block: AnthropicToolUseBlock, signal?: AbortSignal): Promise<AnthropicToolResultBlock>
  executors: ToolExecutors
}

/** Builds the Anthropic tool definitions (from the same zod schemas as every other format) and a runner. */
export async function anthropicTools(options: ToolSetOptions = {}): Promise<AnthropicTools> {
  const set = await buildToolSet(options)
  return {
    tools: set.definitions.map((d) => ({
      name: d.name,
      description: d.description,
      input_schema: toolJsonSchema(d.inputSchema),
    })),
    run: (block, signal) => runAnthropicToolUse(block, set.executors, signal),
    executors: set.executors,
  }
}

/** Runs one Anthropic `tool_use` block with the given executors and returns the `tool_result` block. Never throws. */
export async function runAnthropicToolUse(
  block: AnthropicToolUseBlock,
  executors: ToolExecutors,
  signal?: AbortSignal,
): Promise<AnthropicToolResultBlock> {
  const result: ToolResult = await runTool(executors, block.name, block.input ?? {}, signal)
  return {
    type: 'tool_result',
    tool_use_id: block.id,
    content: result.content,
    ...(result.isError && { is_error: true }),
  }
}
