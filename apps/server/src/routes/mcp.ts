import type { Env } from '@search-layer/core'
import type { AppContext } from '../app-context.js'
import type { ConversationScope } from '../conversation-scope.js'
import { callOf } from '../request-env.js'
import { createRouter } from './responses.js'

/** Options of `mcpRoutes`. */
export interface McpRoutesOptions {
  env: Env
  layerFor: AppContext['layerFor']
  /** How long a `web_search` tool call may take (the request timeout less a margin). */
  searchDeadlineMs: number
  /** Each caller's conversations directory: `answer`'s follow-ups see the caller's own conversations only. */
  scope: ConversationScope
}

/**
 * `/mcp`: MCP over Streamable HTTP, stateless; a handler per request binds the caller's identity and cancel signal
 * to the shared engine.
 */
export function mcpRoutes({ env, layerFor, searchDeadlineMs, scope }: McpRoutesOptions) {
  const router = createRouter()
  // The MCP SDK (and its JSON-schema validator) loads on the first /mcp request, not at start-up: it is a
  // large share of an idle server's memory that API-only deployments never need.
  let mcp: Promise<typeof import('@search-layer/mcp')> | undefined
  router.all('/mcp', async (c) => {
    mcp ??= import('@search-layer/mcp')
    const { createMcpHttpHandler } = await mcp
    const callerEnv = { ...env, SEARCH_LAYER_HISTORY_DIR: scope(c.req.header('authorization')) }
    return createMcpHttpHandler({ env: callerEnv, layer: layerFor(callOf(c)), searchDeadlineMs })(c.req.raw)
  })
  return router
}
