import { ConfigError } from '@search-layer/core'
import type { Tool } from 'ai'
import type { ToolResult } from './results.js'
import { dropNulls, toolJsonSchema } from './json-schema.js'
import type { ToolName, ToolSetName } from './schemas.js'
import { type ToolSetOptions, buildToolSet } from './toolset.js'

/**
 * The parts of the `ai` module the tools are built with. Typed loosely on purpose: `tool()` and `jsonSchema()`
 * changed their generics between AI SDK 5, 6 and 7, and any of those modules fits here.
 */
export interface AiSdkModule {
  tool: (definition: never) => unknown
  jsonSchema: (schema: never, options?: never) => unknown
}

/** Options of `aiSdkTools`: the tool set's, plus which `ai` module to build with. */
export interface AiSdkToolsOptions extends ToolSetOptions {
  /**
   * The Vercel AI SDK module (`await import('ai')`); default the `ai` package this one resolves. Pass it when your
   * app's `ai` is not the one Node finds from here (a workspace with two copies, a bundler alias).
   */
  ai?: AiSdkModule
}

/** The four tools, and `answer` when the options ask for it. */
export type AiSdkToolSet = Record<ToolName, Tool<unknown, ToolResult>> &
  Partial<Record<ToolSetName, Tool<unknown, ToolResult>>>

// `toModelOutput` receives the result itself in AI SDK 5 and `{ toolCallId, input, output }` from 6 on.
function toolResultOf(argument: unknown): ToolResult {
  const bag = argument as { output?: unknown; content?: unknown }
  return (typeof bag.content === 'string' ? bag : bag.output) as ToolResult
}

/** What the model is shown for a tool result: its text, as error text when the call failed. */
function modelOutput(argument: unknown) {
  const result = toolResultOf(argument)
  return result.isError
    ? { type: 'error-text' as const, value: result.content }
    : { type: 'text' as const, value: result.content }
}

async function loadAi(): Promise<AiSdkModule> {
  try {
    return (await import('ai')) as unknown as AiSdkModule
  } catch (error) {
    throw new ConfigError('aiSdkTools needs the Vercel AI SDK: install the `ai` package (v5, v6 or v7).', {
      cause: error,
    })
  }
}

/**
 * Builds Vercel AI SDK tools (`tool({ description, inputSchema, execute })`) for `generateText({ tools })` and
 * `streamText({ tools })` on AI SDK 5, 6 and 7, from the same zod schemas as every other format. `ai` is an optional
 * peer dependency, loaded here on first use; throws `ConfigError` when it is not installed. `execute` resolves to a
 * `ToolResult`; the model sees its `content` (as error text when `isError`).
 */
export async function aiSdkTools(options: AiSdkToolsOptions = {}): Promise<AiSdkToolSet> {
  const { ai: given, ...setOptions } = options
  const ai = (given ?? (await loadAi())) as unknown as {
    tool: (definition: unknown) => Tool<unknown, ToolResult>
    jsonSchema: (schema: unknown, options: unknown) => unknown
  }
  const set = await buildToolSet(setOptions)
  const entries = set.definitions.map((d) => {
    const definition = ai.tool({
      description: d.description,
      // Arguments are checked by the executor, whose messages are written for the model; here they only pass through.
      inputSchema: ai.jsonSchema(toolJsonSchema(d.inputSchema), {
        validate: (value: unknown) => ({ success: true, value: dropNulls(value) }),
      }),
      execute: (input: unknown, { abortSignal }: { abortSignal?: AbortSignal } = {}) =>
        set.executors[d.name](input, abortSignal ? { signal: abortSignal } : undefined),
      toModelOutput: modelOutput,
    })
    return [d.name, definition] as const
  })
  return Object.fromEntries(entries) as AiSdkToolSet
}
