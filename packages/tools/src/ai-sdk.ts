import { ConfigError } from '@search-layer/core'
import type { Tool } from 'ai'
import { type ToolSetOptions, buildToolSet } from './toolset.js'
import type { ToolResult } from './executors.js'
import { dropNulls, toolJsonSchema } from './json-schema.js'
import type { ToolName } from './schemas.js'

/**
 * Builds Vercel AI SDK tools (`tool({ description, inputSchema, execute })`) for `generateText({ tools })`, from the
 * same zod schemas as every other format. `ai` is an optional peer dependency, loaded here on first use; throws
 * `ConfigError` when it is not installed. `execute` resolves to a `ToolResult`; the model sees its `content`
 * (as error text when `isError`).
 */
export async function aiSdkTools(options: ToolSetOptions = {}): Promise<Record<ToolName, Tool<unknown, ToolResult>>> {
  let ai: typeof import('ai')
  try {
    ai = await import('ai')
  } catch (error) {
    throw new ConfigError('aiSdkTools needs the Vercel AI SDK: install the `ai` package (v5 or later).', {
      cause: error,
    })
  }
  const set = await buildToolSet(options)
  const entries = set.definitions.map((d) => {
    const definition = ai.tool<unknown, ToolResult>({
      description: d.description,
      // Arguments are checked by the executor, whose messages are written for the model; here they only pass through.
      inputSchema: ai.jsonSchema<unknown>(toolJsonSchema(d.inputSchema) as Parameters<typeof ai.jsonSchema>[0], {
        validate: (value) => ({ success: true, value: dropNulls(value) }),
      }),
      execute: (input, { abortSignal }) =>
        set.executors[d.name](input, abortSignal ? { signal: abortSignal } : undefined),
      toModelOutput: ({ output }) =>
        output.isError ? { type: 'error-text', value: output.content } : { type: 'text', value: output.content },
    })
    return [d.name, definition] as const
  })
  return Object.fromEntries(entries) as Record<ToolName, Tool<unknown, ToolResult>>
}
