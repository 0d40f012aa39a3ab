import { OpenAPIHono } from '@hono/zod-openapi'
import { ConfigError, type Env, type ProviderDefinition } from '@search-layer/core'
import { type SearchLayer, createSearchLayer } from '@search-layer/engine'
import { conversationsDir } from '@search-layer/ask'
import pino, { type DestinationStream, type Logger } from 'pino'
import { createAppContext, toolDeadlinesFor } from './app-context.js'
import { createSearch } from './search-service.js'
import { type ServerState, createServerState } from './server-state.js'
import { createHostPolicy } from './host-policy.js'
import { createSharedKeyStateStore, createSharedPaceStore, createSharedUsageStore } from './shared-stores.js'
import type { AppEnv } from './request-env.js'
import type { AppContext } from './app-context.js'
import { accessLog } from './middleware/access-log.js'
import { apiKeyAuth } from './middleware/auth.js'
import { requestBodyLimit } from './middleware/body-limit.js'
import { clientRateLimit } from './middleware/client-limit.js'
import { requestDeadline } from './middleware/deadline.js'
import { errorHandler, notFound, validationHook } from './middleware/errors.js'
import { allowedHost, sameOriginOnly } from './middleware/host-origin.js'
import { requestId } from './middleware/request-id.js'
import { registerBearerScheme, securityFor } from './routes/responses.js'
import { askRoutes } from './routes/ask.js'
import { conversationRoutes } from './routes/conversations.js'
import { conversationScope } from './conversation-scope.js'
import { fetchRoutes } from './routes/fetch.js'
import { healthRoutes } from './routes/health.js'
import { historyRoutes } from './routes/history.js'
import { mcpRoutes } from './routes/mcp.js'
import { metricsRoutes } from './routes/metrics.js'
import { openApiRoutes } from './routes/openapi.js'
import { searchStreamRoutes } from './routes/search-stream.js'
import { searchRoutes } from './routes/search.js'
import { toolCallLogRoutes } from './routes/tool-calls.js'
import { toolRoutes } from './routes/tools.js'
import { webAppRoutes } from './routes/web.js'
import { type ServerOptions, resolveServerOptions } from './settings.js'

export type { AppCall, AppEnv, AppVariables } from './request-env.js'
export type { AppContext } from './app-context.js'

/** Options of `createApp`: every `ServerOptions` field plus the wiring. */
export interface CreateAppOptions extends Partial<ServerOptions> {
  /** Provider keys and base URLs are read from here (at call time). Default `process.env`. */
  env?: Env
  /** A pino logger; default one at `logLevel` writing JSON lines to `logStream` or stdout. */
  logger?: Logger
  logStream?: DestinationStream
  /** Use this engine instead of building one from the options. */
  layer?: SearchLayer
  /** The search sources of the engine built from the options (default the built-in ones, add plug-ins here). */
  providers?: readonly ProviderDefinition[]
  /** Serve MCP over Streamable HTTP at `/mcp` (behind the same auth, limits and logging). Default true. */
  mcp?: boolean
  /** Mounts more routes behind the same auth, rate limit, logging and error handling; they take precedence over `/mcp`. */
  routes?: (app: OpenAPIHono<AppEnv>, context: AppContext) => void
  /** The built web app served at `/`; `false` serves none. Default: found beside the bundle. */
  webDir?: string | false
}

/** The wired app. */
export interface ServerApp {
  app: OpenAPIHono<AppEnv>
  context: AppContext
  options: ServerOptions
  /** Waits (bounded) for Redis' first connection; resolves false when it did not come up. */
  ready(timeoutMs?: number): Promise<boolean>
  /** Closes Redis; in-flight requests are the HTTP server's business. */
  close(): Promise<void>
}

/** The default logger: JSON lines at `level`, to `stream` or stdout. */
function createLogger(level: ServerOptions['logLevel'], stream: DestinationStream | undefined): Logger {
  return pino(
    {
      level,
      base: { service: 'search-layer' },
      // Belt and braces: nothing we log carries these, but a future field must not leak them.
      redact: {
        paths: ['authorization', '*.authorization', 'headers.authorization', 'apiKey', '*.apiKey', 'key', '*.key'],
        censor: '[redacted]',
      },
    },
    stream ?? pino.destination(1),
  )
}

/** The engine the settings describe, sharing the server's cache and budget counters (Redis or memory). */
function createLayer(
  settings: ServerOptions,
  env: Env,
  state: ServerState,
  logger: Logger,
  providers?: readonly ProviderDefinition[],
) {
  const limits = settings.providerRateLimits
  const rateLimits =
    limits === false
      ? false
      : limits
        ? Object.fromEntries(
            Object.entries(limits).map(([p, n = 1]) => [p, { perSecond: n, burst: Math.max(1, Math.ceil(n)) }]),
          )
        : undefined
  return createSearchLayer({
    env,
    cache: state.sharedCache,
    usage: createSharedUsageStore(state.redis),
    keyState: createSharedKeyStateStore(state.redis, (message) => logger.warn(message)),
    paceStore: createSharedPaceStore(state.redis),
    providerTimeoutMs: settings.providerTimeoutMs,
    // Late engines' answers complete the cached entry for the next identical search, from any instance.
    lateCalls: 'finish',
    ...(providers && { providers }),
    ...(rateLimits !== undefined && { rateLimits }),
    ...(settings.monthlyBudgets && { monthlyBudgets: settings.monthlyBudgets }),
  })
}

// Rate limits and budgets name providers before the registry is known: each must be one of the layer's.
function checkProviderSettings(settings: ServerOptions, ids: readonly string[]): void {
  const named = [
    ['SEARCH_LAYER_RATE_LIMITS', settings.providerRateLimits || {}],
    ['SEARCH_LAYER_MONTHLY_BUDGETS', settings.monthlyBudgets ?? {}],
  ] as const
  for (const [variable, pairs] of named)
    for (const id of Object.keys(pairs))
      if (!ids.includes(id))
        throw new ConfigError(`${variable} names unknown provider "${id}"; registered providers: ${ids.join(', ')}`, {
          field: variable,
        })
}

/** Wires the engine, Redis-or-memory state, auth, limits, metrics and routes into a Hono app. Throws `ConfigError` for bad options. */
export function createApp(options: CreateAppOptions = {}): ServerApp {
  const env = options.env ?? process.env
  const settings = resolveServerOptions(options, env)
  const logger = options.logger ?? createLogger(settings.logLevel, options.logStream)
  const state = createServerState(settings, logger)
  const layer = options.layer ?? createLayer(settings, env, state, logger, options.providers)
  checkProviderSettings(
    settings,
    layer.providers.map((d) => d.id),
  )
  const search = createSearch({ layer, state, maxQueryChars: settings.maxQueryChars, logger })
  const toolDeadlines = toolDeadlinesFor(settings.requestTimeoutMs)
  const context = createAppContext({ env, layer, search, toolDeadlines, logger })
  const security = securityFor(state.auth.enabled)
  const keyAuth = apiKeyAuth(state.auth)
  const hosts = createHostPolicy({
    bindHost: settings.host,
    allowedHosts: settings.allowedHosts,
    authEnabled: state.auth.enabled,
  })

  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  // Request id, access log and HTTP metrics wrap everything, errors included.
  app.use('*', requestId(), accessLog({ logger, metrics: state.metrics }))
  // DNS rebinding: a page reaching us under a foreign name gets nothing, the web app included.
  app.use('*', allowedHost(hosts))
  // The page holds no data: it loads without a key and asks for one when the API does, and a link from another
  // site may open it. Everything after it refuses other sites' pages.
  if (options.webDir !== false) app.route('/', webAppRoutes(options.webDir))
  // Identify, count, then refuse: callers with a bad key are counted by address, so guessing keys is rate-limited too.
  app.use(
    '*',
    sameOriginOnly(hosts),
    keyAuth.identifyCaller,
    clientRateLimit({
      limiter: state.limiter,
      limit: settings.clientRateLimit,
      windowMs: settings.clientRateWindowMs,
      metrics: state.metrics,
      isIdentified: keyAuth.isIdentified,
    }),
    keyAuth.requireApiKey,
    requestBodyLimit({ maxBytes: settings.bodyLimitBytes }),
    requestDeadline({ timeoutMs: settings.requestTimeoutMs }),
  )
  app.onError(errorHandler({ logger }))
  app.notFound(notFound)

  // The tool-call log wraps the tool routes and /mcp, and the event stream answers /v1/search before the JSON routes.
  app.route('/', toolCallLogRoutes({ log: state.toolCallLog, security }))
  app.route('/', searchStreamRoutes(context))
  app.route('/', searchRoutes({ search: context.search, security, maxQueryChars: settings.maxQueryChars }))
  app.route('/', fetchRoutes({ env, fetchTimeoutMs: settings.fetchTimeoutMs, security }))
  const scope = conversationScope({ dir: conversationsDir(env), authEnabled: state.auth.enabled })
  app.route('/', askRoutes({ context, env, scope, requestTimeoutMs: settings.requestTimeoutMs, security }))
  app.route('/', conversationRoutes({ scope, security }))
  app.route('/', toolRoutes({ layer, runTool: context.runTool, security }))
  app.route('/', historyRoutes({ history: state.history, security }))
  app.route('/', healthRoutes({ layer, shared: state.redis }))
  app.route('/', metricsRoutes({ layer, state, security }))
  // The scheme is declared only when routes require it: with auth off every operation's `security` is empty.
  if (state.auth.enabled) registerBearerScheme(app)
  options.routes?.(app, context)
  if (options.mcp !== false)
    app.route(
      '/',
      mcpRoutes({ env, layerFor: context.layerFor, searchDeadlineMs: toolDeadlines.searchDeadlineMs, scope }),
    )
  app.route('/', openApiRoutes(app, { bodyLimitBytes: settings.bodyLimitBytes }))

  return {
    app,
    context,
    options: settings,
    ready: (timeoutMs = Math.max(1000, settings.redisTimeoutMs * 8)) => state.redis.ready(timeoutMs),
    close: () => state.redis.close(),
  }
}
