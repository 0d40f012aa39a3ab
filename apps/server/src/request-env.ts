import type { HttpBindings } from '@hono/node-server'
import type {
  SearchCallOptions,
  SearchLayer,
  SearchProgress,
  SearchRequest,
  SearchResponse,
} from '@search-layer/engine'
import type { ToolName, ToolResult } from '@search-layer/tools'
import type { Context } from 'hono'
import type { Logger } from 'pino'

/** Per-request values the middleware chain hands to routes. */
export interface AppVariables {
  requestId: string
  /** The API-key identity, or `anonymous` when auth is off. */
  who: string
  /** Aborted when the request times out or the client goes away. */
  signal: AbortSignal
}

/** The Hono environment of the app (node-server bindings + request variables). */
export type AppEnv = { Bindings: HttpBindings; Variables: AppVariables }

/** One caller's request: whose it is (history, limits) and what cancels it. */
export interface AppCall {
  who: string
  signal: AbortSignal
  /** Engine progress events of a search, on top of the server's own metrics. */
  onProgress?: (event: SearchProgress) => void
  /** Stream events of a search (plan, progress, re-ranked results), for `/v1/search` as server-sent events. */
  onStream?: SearchCallOptions['onStream']
}

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

/** The caller of the request in `c`, as routes hand it to `AppContext`. */
export const callOf = (c: Context<AppEnv>): AppCall => ({ who: c.get('who'), signal: c.get('signal') })
