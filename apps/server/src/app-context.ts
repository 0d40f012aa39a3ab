import { type Env, InputError, parseInput, redactSecrets } from '@search-layer/core'
import { type SearchLayer, type SearchRequest, type SearchResponse, streamSearch } from '@search-layer/engine'
import {
  TOOL_INPUT_SCHEMAS,
  TOOL_NAMES,
  type ToolName,
  type ToolResult,
  createToolExecutors,
  dropNulls,
} from '@search-layer/tools'
import type { Logger } from 'pino'
import type { ServerSearch } from './search-service.js'
import type { AppCall } from './request-env.js'

/** What extra route mounts can use: the same tools, search and engine as the HTTP routes and `/mcp`. */
export interface AppContext {
  /** The agent tools of `@search-layer/tools`, in the order agents see them. */
  toolNames: readonly ToolName[]
  /** Runs one shared tool executor; throws `InputError` for an unknown tool or bad arguments, otherwise failures are `isError` results. */
  runTool(name: string, args: unknown, call: AppCall): Promise<ToolResult & { isError: boolean }>
  /** Runs one search with cross-instance single-flight, metrics and history. Throws `InputError` and `ConfigError`. */
  search(request: SearchRequest, call: AppCall): Promise<SearchResponse>
  /** The engine as one caller sees it: searches go through `search` (single-flight, metrics, history); status is the shared engine's. */
  layerFor(call: AppCall): SearchLayer
  logger: Logger
}

/** Options of `createAppContext`. */
export interface CreateAppContextOptions {
  env: Env
  /** The shared engine: its providers and status; searches go through `search`. */
  layer: SearchLayer
  search: ServerSearch
  /** Per-tool deadlines (`toolDeadlinesFor`). */
  toolDeadlines: ToolDeadlines
  logger: Logger
}

/** How long a tool's search and page fetch may take. */
export interface ToolDeadlines {
  searchDeadlineMs: number
  fetchDeadlineMs: number
}

/**
 * A tool answers before the request timeout cuts it: a search returns what arrived by then, a fetch gives up with
 * a sentence the model can read, instead of a bare 504 (and on /mcp, whose SSE body outlives the timeout, at all).
 */
export function toolDeadlinesFor(requestTimeoutMs: number): ToolDeadlines {
  const toolDeadlineMs = Math.max(100, requestTimeoutMs - 500)
  return { searchDeadlineMs: Math.min(15_000, toolDeadlineMs), fetchDeadlineMs: toolDeadlineMs }
}

/** Whether `name` is one of the agent tools. */
export const isToolName = (name: string): name is ToolName => (TOOL_NAMES as readonly string[]).includes(name)

/** The sentence for a tool name that is not one of the agent tools (the name redacted). */
export const unknownToolMessage = (name: string) =>
  `Unknown tool "${redactSecrets(name)}"; available: ${TOOL_NAMES.join(', ')}`

/** The context extra routes, the tool routes and `/mcp` share: tools and engine on top of the server's search. */
export function createAppContext({ env, layer, search, toolDeadlines, logger }: CreateAppContextOptions): AppContext {
  // Tools and MCP search through `search`, so they share single-flight, metrics and history with /v1/search.
  const layerFor = (call: AppCall): SearchLayer => ({
    providers: layer.providers,
    search: (request, callOptions = {}) =>
      search.search(request, {
        who: call.who,
        signal: callOptions.signal ? AbortSignal.any([call.signal, callOptions.signal]) : call.signal,
        ...((callOptions.onProgress ?? call.onProgress) && { onProgress: callOptions.onProgress ?? call.onProgress }),
      }),
    parseRequest: (request) => layer.parseRequest(request),
    status: () => layer.status(),
    stream: (request, callOptions = {}) =>
      streamSearch((r, o) => layerFor(call).search(r, { ...callOptions, ...o }), request, callOptions),
  })

  async function runTool(name: string, args: unknown, call: AppCall): Promise<ToolResult & { isError: boolean }> {
    if (!isToolName(name)) throw new InputError(unknownToolMessage(name), [{ path: 'name', message: 'unknown tool' }])
    // The executors turn bad arguments into an isError result for models; the HTTP API answers 400 with the issues instead.
    const input = parseInput(TOOL_INPUT_SCHEMAS[name], dropNulls(args), `${name} arguments`)
    if (name === 'web_search') search.checkQueryLength(input as SearchRequest)
    const result = await createToolExecutors({ layer: layerFor(call), env, ...toolDeadlines })[name](args, {
      signal: call.signal,
      ...(call.onProgress && { onProgress: call.onProgress }),
    })
    return { ...result, isError: result.isError ?? false }
  }

  return { toolNames: TOOL_NAMES, runTool, search: search.search, layerFor, logger }
}
