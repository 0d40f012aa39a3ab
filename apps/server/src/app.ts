import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import type { HttpBindings } from '@hono/node-server'
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi'
import {
  ConfigError,
  type Env,
  InputError,
  type ProviderDefinition,
  type ProviderName,
  keyVariableHint,
  formatIssues,
  parseInput,
  redactSecrets,
} from '@search-layer/core'
import {
  type SearchCallOptions,
  type SearchLayer,
  type SearchProgress,
  type SearchRequest,
  SearchRequestSchema,
  type SearchResponse,
  cacheKey,
  streamSearch,
  createSearchLayer,
  monthOf,
} from '@search-layer/engine'
import { fetchPage } from '@search-layer/page-fetch'
import { synthesize, toJSON, toMarkdown, toText } from '@search-layer/synthesis'
import {
  RefSchema,
  ThreadErrorSchema,
  ThreadSchema,
  ThreadTypeSchema,
  extractRefsFromUrls,
  fetchThread,
} from '@search-layer/thread-fetch'
import type { Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { HTTPException } from 'hono/http-exception'
import pino, { type DestinationStream, type Logger } from 'pino'
import { createAuthenticator } from './_auth.js'
import { createClientLimiter } from './_client-limit.js'
import { type ErrorCode, ERROR_STATUS, describeError } from './errors.js'
import { createHistoryStore } from './_history.js'
import { createMetrics, renderGauge } from './_metrics.js'
import {
  ErrorBodySchema,
  FetchBodySchema,
  HistoryEntrySchema,
  ReadablePageSchema,
  RefsBodySchema,
  SearchFormatSchema,
  ThreadBodySchema,
  SearchQuerySchema,
  SearchResponseSchema,
  ToolDescriptionSchema,
  ToolResultSchema,
} from './_schemas.js'
import { mountSearchStream } from './_sse-search.js'
import { createToolCallLog } from './_tool-log.js'
import { mountToolCallLog } from './routes/tool-calls.js'
import { mountWebApp } from './routes/web.js'
import { createSearchClaims, createSharedCache, createSharedState, createSharedUsageStore } from './_shared-state.js'
import { createSearchSlots } from './_search-slots.js'
import {
  TOOL_INPUT_SCHEMAS,
  TOOL_NAMES,
  type ToolName,
  type ToolResult,
  createToolExecutors,
  dropNulls,
  liveSources,
  toolDefinitions,
  toolJsonSchema,
} from '@search-layer/tools'
import { type ServerOptions, resolveServerOptions } from './settings.js'

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

/** Tool calls kept per caller for the web app's timeline. */
const TOOL_CALLS_KEPT = 200
const PUBLIC_PATHS = new Set(['/healthz', '/readyz'])
const UNLIMITED_PATHS = new Set(['/healthz', '/readyz', '/metrics'])
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

function errorJson(c: Context, code: ErrorCode, message: string, extra: Record<string, unknown> = {}) {
  return c.json(
    { error: message, code, requestId: c.get('requestId') as string | undefined, ...extra },
    ERROR_STATUS[code],
  )
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
  const logger =
    options.logger ??
    pino(
      {
        level: settings.logLevel,
        base: { service: 'search-layer' },
        // Belt and braces: nothing we log carries these, but a future field must not leak them.
        redact: {
          paths: ['authorization', '*.authorization', 'headers.authorization', 'apiKey', '*.apiKey', 'key', '*.key'],
          censor: '[redacted]',
        },
      },
      options.logStream ?? pino.destination(1),
    )
  const instanceId = randomUUID()
  const shared = createSharedState({
    redisUrl: settings.redisUrl,
    prefix: settings.redisPrefix,
    timeoutMs: settings.redisTimeoutMs,
    logger,
  })
  const claims = createSearchClaims(shared, instanceId)
  const sharedCache = createSharedCache(shared)
  const searchSlots = createSearchSlots(settings.maxConcurrentSearches)
  const history = createHistoryStore(shared, {
    file: join(settings.dataDir, 'history.jsonl'),
    max: settings.historyMax,
  })
  const limiter = createClientLimiter(shared, {
    limit: settings.clientRateLimit,
    windowMs: settings.clientRateWindowMs,
  })
  const auth = createAuthenticator(settings.apiKeys)
  const metrics = createMetrics()
  const providerRateLimits =
    settings.providerRateLimits === false
      ? false
      : settings.providerRateLimits
        ? Object.fromEntries(
            Object.entries(settings.providerRateLimits).map(([p, n = 1]) => [
              p,
              { perSecond: n, burst: Math.max(1, Math.ceil(n)) },
            ]),
          )
        : undefined
  const layer =
    options.layer ??
    createSearchLayer({
      env,
      cache: sharedCache,
      usage: createSharedUsageStore(shared),
      providerTimeoutMs: settings.providerTimeoutMs,
      ...(options.providers && { providers: options.providers }),
      ...(providerRateLimits !== undefined && { rateLimits: providerRateLimits }),
      ...(settings.monthlyBudgets && { monthlyBudgets: settings.monthlyBudgets }),
    })
  const providerIds = layer.providers.map((d) => d.id)
  checkProviderSettings(settings, providerIds)

  const onProgress = (event: SearchProgress) => {
    if (event.type === 'done') {
      metrics.providerCalls.inc({ provider: event.provider, outcome: 'ok' })
      metrics.providerLatency.observe({ provider: event.provider }, event.ms / 1000)
    } else if (event.type === 'failed') {
      metrics.providerCalls.inc({ provider: event.provider, outcome: event.kind })
      metrics.providerLatency.observe({ provider: event.provider }, event.ms / 1000)
    } else if (event.type === 'skipped') metrics.providerCalls.inc({ provider: event.provider, outcome: 'skipped' })
  }

  const checkQueryLength = (request: SearchRequest) => {
    const issues: { path: string; message: string }[] = []
    if (typeof request.query === 'string' && request.query.length > settings.maxQueryChars) {
      issues.push({ path: 'query', message: `must be at most ${settings.maxQueryChars} characters` })
    }
    request.queries?.forEach((q, i) => {
      if (typeof q === 'string' && q.length > settings.maxQueryChars)
        issues.push({ path: `queries.${i}`, message: `must be at most ${settings.maxQueryChars} characters` })
    })
    if (issues.length)
      throw new InputError(`Invalid search request: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues)
  }

  async function search(request: SearchRequest, call: AppCall): Promise<SearchResponse> {
    checkQueryLength(request)
    const parsed = parseInput(SearchRequestSchema, request, 'search request')
    let release: (() => Promise<void>) | undefined
    // The cache key is the whole request serialised: built once, for the claim and the slot checks below.
    const key = parsed.cache ? cacheKey(parsed) : undefined
    // A claim only matters for a miss: cached answers skip it, so hot queries never queue behind each other.
    if (key !== undefined && shared.configured && !(await sharedCache.has(key))) {
      const claim = await claims.claim(key, parsed.deadlineMs + 5000)
      if (claim.owner) release = claim.release
      // Another instance is running this very search: wait for it to fill the shared cache.
      else await claims.waitFor(key, parsed.deadlineMs + 1000, call.signal)
    }
    // A slot for misses only: when all are taken, a cached answer still goes out at once instead of queueing.
    let slot = searchSlots.tryAcquire()
    if (!slot && !(key !== undefined && (await sharedCache.has(key)))) {
      try {
        await searchSlots.acquire(call.signal)
      } catch (error) {
        await release?.()
        throw error
      }
      slot = true
    }
    let response: SearchResponse
    try {
      const extra = call.onProgress
      response = await layer.search(parsed, {
        signal: call.signal,
        onProgress: extra
          ? (event) => {
              onProgress(event)
              extra(event)
            }
          : onProgress,
        ...(call.onStream && { onStream: call.onStream }),
      })
    } finally {
      if (slot) searchSlots.release()
      await release?.()
    }
    metrics.cache.inc({ result: response.cached ? 'hit' : 'miss' })
    try {
      await history.add({
        query: response.query,
        intent: response.intent,
        mode: response.mode,
        when: new Date().toISOString(),
        count: response.count,
        cached: response.cached,
        who: call.who,
      })
    } catch (error) {
      // History is a convenience: a full disk must not fail the search.
      logger.warn({ err: redactSecrets((error as Error).message) }, 'could not record history')
    }
    return response
  }

  // Tools and MCP search through `search`, so they share single-flight, metrics and history with /v1/search.
  const layerFor = (call: AppCall): SearchLayer => ({
    providers: layer.providers,
    search: (request, callOptions = {}) =>
      search(request, {
        who: call.who,
        signal: callOptions.signal ? AbortSignal.any([call.signal, callOptions.signal]) : call.signal,
        ...((callOptions.onProgress ?? call.onProgress) && { onProgress: callOptions.onProgress ?? call.onProgress }),
      }),
    status: () => layer.status(),
    stream: (request, callOptions = {}) =>
      streamSearch((r, o) => layerFor(call).search(r, { ...callOptions, ...o }), request, callOptions),
  })
  // A tool answers before the request timeout cuts it: a search returns what arrived by then, a fetch gives up with
  // a sentence the model can read, instead of a bare 504 (and on /mcp, whose SSE body outlives the timeout, at all).
  const toolDeadlineMs = Math.max(100, settings.requestTimeoutMs - 500)
  const toolDeadlines = { searchDeadlineMs: Math.min(15_000, toolDeadlineMs), fetchDeadlineMs: toolDeadlineMs }
  const isToolName = (name: string): name is ToolName => (TOOL_NAMES as readonly string[]).includes(name)
  const unknownTool = (name: string) => `Unknown tool "${redactSecrets(name)}"; available: ${TOOL_NAMES.join(', ')}`

  async function runTool(name: string, args: unknown, call: AppCall): Promise<ToolResult & { isError: boolean }> {
    if (!isToolName(name)) throw new InputError(unknownTool(name), [{ path: 'name', message: 'unknown tool' }])
    // The executors turn bad arguments into an isError result for models; the HTTP API answers 400 with the issues instead.
    const input = parseInput(TOOL_INPUT_SCHEMAS[name], dropNulls(args), `${name} arguments`)
    if (name === 'web_search') checkQueryLength(input as SearchRequest)
    const result = await createToolExecutors({ layer: layerFor(call), env, ...toolDeadlines })[name](args, {
      signal: call.signal,
      ...(call.onProgress && { onProgress: call.onProgress }),
    })
    return { ...result, isError: result.isError ?? false }
  }
  const context: AppContext = { toolNames: TOOL_NAMES, runTool, search, layerFor, logger }

  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) {
        const issues = formatIssues(result.error)
        return errorJson(
          c,
          'invalid_input',
          `Invalid request: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
          { issues },
        )
      }
    },
  })

  // Request id, access log and HTTP metrics wrap everything, errors included.
  app.use('*', async (c, next) => {
    const started = performance.now()
    const incoming = c.req.header('x-request-id')
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID()
    c.set('requestId', requestId)
    c.set('who', 'anonymous')
    await next()
    c.res.headers.set('x-request-id', requestId)
    const route = c.res.status === 404 && c.req.routePath === '/*' ? '(unmatched)' : c.req.routePath
    const seconds = (performance.now() - started) / 1000
    metrics.requests.inc({ route, method: c.req.method, status: String(c.res.status) })
    metrics.latency.observe({ route }, seconds)
    logger.info(
      {
        reqId: requestId,
        method: c.req.method,
        path: redactSecrets(c.req.path),
        status: c.res.status,
        ms: Math.round(seconds * 1000),
        who: c.get('who'),
      },
      'request',
    )
  })

  // The page holds no data: it loads without a key and asks for one when the API does.
  if (options.webDir !== false) mountWebApp(app, options.webDir)

  // One gate: identify, count, then refuse. Unauthenticated callers are counted by address, so guessing keys is rate-limited too.
  app.use('*', async (c, next) => {
    const who = auth.enabled && !PUBLIC_PATHS.has(c.req.path) ? auth.identify(c.req.header('authorization')) : undefined
    if (who) c.set('who', who)
    if (settings.clientRateLimit > 0 && !UNLIMITED_PATHS.has(c.req.path)) {
      const client = who ? `key:${who}` : `ip:${c.env?.incoming?.socket?.remoteAddress ?? 'local'}`
      const verdict = await limiter.hit(client)
      c.header('RateLimit-Limit', String(verdict.limit))
      c.header('RateLimit-Remaining', String(verdict.remaining))
      c.header('RateLimit-Reset', String(Math.ceil(verdict.resetMs / 1000)))
      if (!verdict.allowed) {
        metrics.rateLimited.inc({})
        const retryAfter = Math.max(1, Math.ceil(verdict.resetMs / 1000))
        c.header('Retry-After', String(retryAfter))
        return errorJson(
          c,
          'rate_limited',
          `Rate limit of ${verdict.limit} requests per ${settings.clientRateWindowMs / 1000} s reached; retry in ${retryAfter} s`,
        )
      }
    }
    if (auth.enabled && !PUBLIC_PATHS.has(c.req.path) && !who) {
      c.header('WWW-Authenticate', 'Bearer realm="search-layer"')
      return errorJson(c, 'unauthorized', 'Missing or invalid API key: send Authorization: Bearer <key>')
    }
    return next()
  })

  app.use(
    '*',
    bodyLimit({
      maxSize: settings.bodyLimitBytes,
      onError: (c) => errorJson(c, 'body_too_large', `Request body is larger than ${settings.bodyLimitBytes} bytes`),
    }),
  )

  app.use('*', async (c, next) => {
    const controller = new AbortController()
    // The response's 'close' before it finished means the client went away: stop spending provider calls on it.
    const outgoing = c.env?.outgoing
    outgoing?.once?.('close', () => {
      if (!outgoing.writableFinished) controller.abort(new Error('client closed the connection'))
    })
    c.set('signal', controller.signal)
    let timer: NodeJS.Timeout | undefined
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort(new Error('request timeout'))
        reject(new HTTPException(504, { message: `Request did not finish within ${settings.requestTimeoutMs} ms` }))
      }, settings.requestTimeoutMs)
    })
    try {
      await Promise.race([next(), timedOut])
    } finally {
      clearTimeout(timer)
    }
  })

  mountToolCallLog(app, createToolCallLog(shared, { max: TOOL_CALLS_KEPT }), auth.enabled ? [{ bearer: [] }] : [])
  mountSearchStream(app, context)

  app.onError((error, c) => {
    const { status, body, retryAfterSec, expected } = describeError(error)
    if (retryAfterSec) c.header('Retry-After', String(retryAfterSec))
    const requestId = c.get('requestId')
    if (!expected)
      logger.error(
        {
          reqId: requestId,
          err: {
            name: (error as Error).name,
            message: redactSecrets(String((error as Error).message)),
            stack: redactSecrets(String((error as Error).stack)),
          },
        },
        'unhandled error',
      )
    return c.json({ ...body, requestId }, status as 400)
  })
  app.notFound((c) => errorJson(c, 'not_found', `No route for ${c.req.method} ${redactSecrets(c.req.path)}`))

  const errors = (...codes: ErrorCode[]) =>
    Object.fromEntries(
      codes.map((code) => [
        ERROR_STATUS[code],
        { description: code, content: { 'application/json': { schema: ErrorBodySchema } } },
      ]),
    )
  const common = errors('unauthorized', 'rate_limited', 'timeout')
  const security = auth.enabled ? [{ bearer: [] }] : []

  const json = <T extends z.ZodType>(schema: T, description: string) => ({
    description,
    content: { 'application/json': { schema } },
  })
  const searchOk = {
    description:
      'The engine response; with format=json|markdown|text the synthesis (answer first, topic groups, conflicts) instead',
    content: {
      'application/json': { schema: z.union([SearchResponseSchema, z.record(z.string(), z.unknown())]) },
      'text/markdown': { schema: z.string() },
      'text/plain': { schema: z.string() },
      // Served by _sse-search.ts when the request sends `Accept: text/event-stream`.
      'text/event-stream': {
        schema: z.string().openapi({ description: 'Events plan, progress, results (re-ranked), done or error' }),
      },
    },
  }
  // The engine's response as is, or one of synthesis' forms of it.
  const respondSearch = (c: Context<AppEnv>, response: SearchResponse, form: z.infer<typeof SearchFormatSchema>) => {
    if (!form.format) return c.json(response, 200)
    const synthesis = synthesize(response, { ...(form.maxChars !== undefined && { maxChars: form.maxChars }) })
    if (form.format === 'json') return c.json(toJSON(synthesis), 200)
    if (form.format === 'markdown')
      return c.body(toMarkdown(synthesis), 200, { 'content-type': 'text/markdown; charset=utf-8' })
    return c.text(toText(synthesis), 200)
  }

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/search',
      summary: 'Search: classify, expand, fan out to the providers, merge and score.',
      security,
      request: {
        query: SearchFormatSchema,
        body: { required: true, content: { 'application/json': { schema: SearchRequestSchema } } },
      },
      responses: { 200: searchOk, ...errors('invalid_input', 'body_too_large', 'not_configured'), ...common },
    }),
    async (c) =>
      respondSearch(
        c,
        await search(c.req.valid('json'), { who: c.get('who'), signal: c.get('signal') }),
        c.req.valid('query'),
      ) as never,
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/search',
      summary: 'Search with query parameters (q, mode, intent, freshness, num, sources, cache, format, maxChars).',
      security,
      request: { query: SearchQuerySchema.extend(SearchFormatSchema.shape) },
      responses: { 200: searchOk, ...errors('invalid_input', 'not_configured'), ...common },
    }),
    async (c) => {
      const q = c.req.valid('query')
      const request: SearchRequest = {
        query: q.q,
        ...(q.mode && { mode: q.mode }),
        ...(q.intent && { intent: q.intent }),
        ...(q.freshness && { freshness: q.freshness }),
        ...(q.num !== undefined && { num: q.num }),
        ...(q.sources && { sources: q.sources.split(',').map((s) => s.trim()) as ProviderName[] }),
        ...(q.cache && { cache: q.cache === 'true' }),
      }
      return respondSearch(c, await search(request, { who: c.get('who'), signal: c.get('signal') }), q) as never
    },
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/fetch',
      summary: 'Fetches one URL (SSRF-guarded, size-capped) and returns its readable content.',
      security,
      request: { body: { required: true, content: { 'application/json': { schema: FetchBodySchema } } } },
      responses: {
        200: json(ReadablePageSchema, 'The readable page'),
        ...errors('invalid_input', 'blocked', 'upstream', 'body_too_large'),
        ...common,
      },
    }),
    async (c) => {
      const { url, maxChars } = c.req.valid('json')
      const page = await fetchPage(url, { signal: c.get('signal'), env })
      const cut = (text: string) => (maxChars !== undefined && text.length > maxChars ? text.slice(0, maxChars) : text)
      const truncated = maxChars !== undefined && (page.markdown.length > maxChars || page.text.length > maxChars)
      return c.json({ ...page, markdown: cut(page.markdown), text: cut(page.text), truncated }, 200)
    },
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/thread',
      summary:
        'Reads a GitHub issue/PR, Hacker News, Reddit or V2EX thread (or any page) with comments and typed references.',
      security,
      request: { body: { required: true, content: { 'application/json': { schema: ThreadBodySchema } } } },
      responses: {
        200: json(ThreadSchema, 'The thread'),
        ...errors('invalid_input', 'blocked', 'upstream', 'body_too_large'),
        ...common,
      },
    }),
    async (c) => {
      const { url, maxComments } = c.req.valid('json')
      return c.json(await fetchThread(url, { signal: c.get('signal'), env, maxComments }), 200)
    },
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/refs',
      summary: "Each URL's typed references (issues, PRs, commits, links); one URL's failure is reported in its entry.",
      security,
      request: { body: { required: true, content: { 'application/json': { schema: RefsBodySchema } } } },
      responses: {
        200: json(
          z.object({
            results: z.array(
              z.object({
                url: z.string(),
                title: z.string().optional(),
                type: ThreadTypeSchema.optional(),
                refs: z.array(RefSchema),
                error: ThreadErrorSchema.optional(),
              }),
            ),
          }),
          'References per URL, in request order',
        ),
        ...errors('invalid_input', 'body_too_large'),
        ...common,
      },
    }),
    async (c) =>
      c.json({ results: await extractRefsFromUrls(c.req.valid('json').urls, { signal: c.get('signal'), env }) }, 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/tools',
      summary:
        'The agent tools with JSON Schema parameters (OpenAI function-calling shape); web_search advertises only the configured engines.',
      security,
      responses: { 200: json(z.object({ tools: z.array(ToolDescriptionSchema) }), 'The tools'), ...common },
    }),
    async (c) => {
      const definitions = toolDefinitions(await liveSources({ layer }))
      return c.json(
        {
          tools: definitions.map((d) => ({
            name: d.name,
            title: d.title,
            description: d.description,
            parameters: toolJsonSchema(d.inputSchema),
          })),
        },
        200,
      )
    },
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/tools/{name}',
      summary:
        'Runs one tool with its function-call arguments. Tool failures are 200 with isError and a friendly sentence in content.',
      security,
      request: {
        params: z.object({ name: z.string().openapi({ param: { name: 'name', in: 'path' }, example: 'web_search' }) }),
        body: { required: true, content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } },
      },
      responses: {
        200: json(ToolResultSchema, 'The tool result'),
        ...errors('invalid_input', 'not_found', 'body_too_large'),
        ...common,
      },
    }),
    async (c) => {
      const { name } = c.req.valid('param')
      if (!isToolName(name)) return errorJson(c, 'not_found', unknownTool(name)) as never
      return c.json(await runTool(name, c.req.valid('json'), { who: c.get('who'), signal: c.get('signal') }), 200)
    },
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/history',
      summary: "The caller's recent searches, newest first.",
      security,
      request: { query: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(50) }) },
      responses: {
        200: json(z.object({ entries: z.array(HistoryEntrySchema) }), 'Recent searches'),
        ...errors('invalid_input'),
        ...common,
      },
    }),
    async (c) => c.json({ entries: await history.list(c.get('who'), c.req.valid('query').limit) }, 200),
  )

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/history',
      summary: "Forgets the caller's searches, or with `when` the one that finished then.",
      security,
      request: {
        query: z.object({
          when: z.string().optional().openapi({ description: "One entry's `when`, as /v1/history listed it." }),
        }),
      },
      responses: {
        200: json(z.object({ deleted: z.number() }), 'How many entries were removed'),
        ...errors('invalid_input'),
        ...common,
      },
    }),
    async (c) => {
      const { when } = c.req.valid('query')
      const who = c.get('who')
      return c.json({ deleted: await (when ? history.remove(who, when) : history.clear(who)) }, 200)
    },
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/healthz',
      summary: 'The process is up.',
      responses: { 200: json(z.object({ status: z.literal('ok') }), 'Up') },
    }),
    (c) => c.json({ status: 'ok' as const }, 200),
  )

  const ReadySchema = z.object({
    status: z.enum(['ready', 'degraded', 'not_ready']),
    providers: z.array(z.object({ name: z.string(), configured: z.boolean(), resting: z.boolean() })),
    redis: z.object({ configured: z.boolean(), up: z.boolean(), error: z.string().optional() }),
    warnings: z.array(z.string()),
  })
  app.openapi(
    createRoute({
      method: 'get',
      path: '/readyz',
      summary:
        'Dependencies reachable and providers configured. Redis down is "degraded" (200): requests are served in-process.',
      responses: { 200: json(ReadySchema, 'Ready or degraded'), 503: json(ReadySchema, 'No provider configured') },
    }),
    async (c) => {
      const statuses = await layer.status()
      const warnings: string[] = []
      const redis = shared.configured ? await shared.ping() : { ok: false, ms: 0 }
      if (shared.configured && !redis.ok)
        warnings.push(
          `redis unreachable (${redis.error ?? 'unknown'}): cache, rate limits, budgets and history are per-instance until it is back`,
        )
      const configured = statuses.filter((s) => s.configured)
      if (configured.length === 0)
        warnings.push(
          `no search provider is configured: set ${layer.providers
            .filter((d) => !d.keyless)
            .map((d) => keyVariableHint(d))
            .join(' or ')}`,
        )
      for (const s of statuses)
        if (s.configured && s.circuit.open) warnings.push(`${s.name} is resting after repeated failures`)
      const status = configured.length === 0 ? 'not_ready' : warnings.length ? 'degraded' : 'ready'
      const body = {
        status,
        providers: statuses.map((s) => ({ name: s.name, configured: s.configured, resting: s.circuit.open })),
        redis: {
          configured: shared.configured,
          up: shared.configured && redis.ok,
          ...(shared.configured && !redis.ok && { error: redis.error ?? 'unreachable' }),
        },
        warnings,
      } as const
      return status === 'not_ready' ? c.json(body, 503) : c.json(body, 200)
    },
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/metrics',
      summary: 'Prometheus text format: requests, latencies, provider calls by outcome, cache hits, budget use.',
      security,
      responses: {
        200: { description: 'Prometheus exposition format 0.0.4', content: { 'text/plain': { schema: z.string() } } },
        ...common,
      },
    }),
    async (c) => {
      const statuses = await layer.status()
      const month = monthOf(new Date())
      const budgets = statuses.flatMap((s) => (s.budget ? [s] : []))
      const text = [
        metrics.requests.render(),
        metrics.latency.render(),
        metrics.providerCalls.render(),
        metrics.providerLatency.render(),
        metrics.cache.render(),
        metrics.rateLimited.render(),
        renderGauge(
          'search_layer_budget_used_calls',
          'Provider calls counted this month against the budget.',
          budgets.map((s) => ({ labels: { provider: s.name, month: s.budget!.month }, value: s.budget!.used })),
        ),
        renderGauge(
          'search_layer_budget_limit_calls',
          'Monthly call budget per provider.',
          budgets.map((s) => ({ labels: { provider: s.name, month }, value: s.budget!.limit })),
        ),
        renderGauge(
          'search_layer_provider_configured',
          'Provider has a key (1) or not (0).',
          providerIds.map((name) => ({
            labels: { provider: name },
            value: statuses.find((s) => s.name === name)?.configured ? 1 : 0,
          })),
        ),
        renderGauge('search_layer_redis_up', 'Redis reachable (1), down or not configured (0).', [
          { labels: {}, value: shared.up() ? 1 : 0 },
        ]),
        renderGauge(
          'search_layer_searches_running',
          'Cache-miss searches running now (at most SEARCH_LAYER_MAX_CONCURRENT_SEARCHES).',
          [{ labels: {}, value: searchSlots.stats().running }],
        ),
        renderGauge('search_layer_searches_waiting', 'Cache-miss searches waiting for a slot.', [
          { labels: {}, value: searchSlots.stats().waiting },
        ]),
      ].join('\n\n')
      return c.text(`${text}\n`, 200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' })
    },
  )

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' })
  options.routes?.(app, context)
  if (options.mcp !== false) {
    // Stateless Streamable HTTP: a handler per request binds the caller's identity and cancel signal to the shared engine.
    // The MCP SDK (and its JSON-schema validator) loads on the first /mcp request, not at start-up: it is a
    // large share of an idle server's memory that API-only deployments never need.
    let mcp: Promise<typeof import('@search-layer/mcp')> | undefined
    app.all('/mcp', async (c) => {
      mcp ??= import('@search-layer/mcp')
      const { createMcpHttpHandler } = await mcp
      return createMcpHttpHandler({
        env,
        layer: layerFor({ who: c.get('who'), signal: c.get('signal') }),
        searchDeadlineMs: toolDeadlines.searchDeadlineMs,
      })(c.req.raw)
    })
  }

  app.get('/openapi.json', (c) =>
    c.json(
      app.getOpenAPI31Document({
        openapi: '3.1.0',
        info: {
          title: 'search-layer',
          version: '0.1.0',
          description:
            'One search API over Brave, Exa, Tavily and Grok. The same agent tools (web_search, web_fetch, fetch_thread, extract_refs) are served over MCP (Streamable HTTP, stateless, POST) at /mcp, behind the same bearer auth and rate limit.',
        },
      }),
    ),
  )

  return {
    app,
    context,
    options: settings,
    ready: (timeoutMs = Math.max(1000, settings.redisTimeoutMs * 8)) => shared.ready(timeoutMs),
    close: () => shared.close(),
  }
}
