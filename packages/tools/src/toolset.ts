import { InputError, type ProviderName } from '@search-layer/core'
import { createSearchLayer } from '@search-layer/engine'
import { type ToolDefinition, answerToolDefinition, liveSources, toolDefinitions } from './definitions.js'
import { type ToolExecutorOptions, type ToolExecutors, createToolExecutors } from './executors.js'
import { type ToolResult, errorResult } from './results.js'
import { ANSWER_TOOL, TOOL_NAMES, type ToolSetName } from './schemas.js'

/** Options of the format adapters: the executor options, plus the providers to advertise. */
export interface ToolSetOptions extends ToolExecutorOptions {
  /** Providers to advertise in `sources`; default the configured ones (`layer.status()`). */
  sources?: readonly ProviderName[]
  /**
   * Offer `answer` too: the ask as one tool (search, read, answer with checked quotes; a model from
   * `SEARCH_LAYER_LLM_*` or extractive). Default false: an agent with its own loop has the four tools.
   */
  answer?: boolean
}

/** The definitions, executors and advertised providers of one tool set. */
export interface ToolSet {
  definitions: ToolDefinition[]
  executors: ToolExecutors
  sources: ProviderName[]
}

/** Builds definitions and executors sharing one search layer, so both see the same configuration. Never throws. */
export async function buildToolSet(options: ToolSetOptions): Promise<ToolSet> {
  const layer = options.layer ?? createSearchLayer({ ...(options.env && { env: options.env }) })
  const sources = options.sources ? [...options.sources] : await liveSources({ layer })
  return {
    definitions: [...toolDefinitions(sources, layer.providers), ...(options.answer ? [answerToolDefinition()] : [])],
    executors: createToolExecutors({ ...options, layer }),
    sources,
  }
}

/** True for one of the four tool names or `answer`. */
const isToolName = (name: string): name is ToolSetName =>
  name === ANSWER_TOOL || (TOOL_NAMES as readonly string[]).includes(name)

/** Runs a tool by name with raw arguments (a JSON string or an object); unknown names and bad JSON become error results. */
export async function runTool(
  executors: ToolExecutors,
  name: string,
  args: unknown,
  signal?: AbortSignal,
): Promise<ToolResult> {
  if (!isToolName(name))
    return errorResult(
      new InputError(`Unknown tool ${JSON.stringify(name)}; the tools are ${TOOL_NAMES.join(', ')}.`, [
        { path: 'name', message: 'unknown tool' },
      ]),
    )
  let parsed = args
  if (typeof args === 'string') {
    try {
      parsed = args.trim() === '' ? {} : JSON.parse(args)
    } catch {
      return errorResult(
        new InputError('The tool arguments are not valid JSON.', [{ path: '(root)', message: 'not valid JSON' }]),
      )
    }
  }
  return executors[name](parsed, signal ? { signal } : undefined)
}
