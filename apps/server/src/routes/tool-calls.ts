import { randomUUID } from 'node:crypto'
import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { MAX_ARGS_CHARS, MAX_SUMMARY_CHARS, type ToolCallLog, clip } from '../tool-log.js'
import { type ToolCallEntry, ToolCallEntrySchema } from '../schemas.js'
import type { AppEnv } from '../request-env.js'
import { type Security, commonErrors, createRouter } from './responses.js'

interface RpcCall {
  id: unknown
  name: string
  args: unknown
}
interface RpcResult {
  result?: { isError?: boolean; content?: { type: string; text?: string }[] }
  error?: { message?: string }
}

/** The text of a result: MCP's content blocks, or the HTTP tool route's one string. */
const textOf = (result: { content?: unknown } | undefined): string => {
  const content = result?.content
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((c: { type?: string; text?: string }) => (c.type === 'text' ? (c.text ?? '') : `[${c.type}]`))
    .join(' ')
    .trim()
}

const asJson = (value: unknown) => {
  try {
    return JSON.stringify(value ?? {})
  } catch {
    return '{}'
  }
}

/** The `tools/call` requests of one MCP POST body (a message or a batch). */
function mcpToolCalls(body: unknown): RpcCall[] {
  const messages = Array.isArray(body) ? body : [body]
  return messages.flatMap((m) => {
    if (!m || typeof m !== 'object') return []
    const { method, id, params } = m as {
      method?: unknown
      id?: unknown
      params?: { name?: unknown; arguments?: unknown }
    }
    if (method !== 'tools/call' || typeof params?.name !== 'string') return []
    return [{ id, name: params.name, args: params.arguments }]
  })
}

/** JSON-RPC responses in an MCP answer: one JSON body, or the `data:` lines of an SSE stream. */
function rpcResponses(contentType: string, text: string): (RpcResult & { id?: unknown })[] {
  const chunks = contentType.includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
    : [text]
  return chunks.flatMap((chunk) => {
    try {
      const parsed = JSON.parse(chunk) as unknown
      return (Array.isArray(parsed) ? parsed : [parsed]) as (RpcResult & { id?: unknown })[]
    } catch {
      return []
    }
  })
}

/**
 * Logs every tool call agents make through `/api/tools/{name}` and `/mcp` for the calling identity, and serves the
 * log at `GET/DELETE /v1/tool-calls`: the tool-call timeline of the web app. Mount it after authentication and
 * before the tool routes. MCP calls are logged when their response stream ends.
 */
export function toolCallLogRoutes({ log, security }: { log: ToolCallLog; security: Security }) {
  const router = createRouter()
  const record = (c: Context<AppEnv>, entry: ToolCallEntry) =>
    log.add({ ...entry, who: c.get('who') }).catch(() => {
      // The log is a convenience: never fail or delay a tool call for it.
    })

  router.post('/api/tools/:name', async (c, next) => {
    const startedAt = new Date()
    const t0 = performance.now()
    const args = await c.req.raw
      .clone()
      .json()
      .catch(() => null)
    await next()
    const reply = (await c.res
      .clone()
      .json()
      .catch(() => ({}))) as { content?: unknown; isError?: boolean; error?: string }
    const ok = c.res.status === 200
    await record(c, {
      id: randomUUID(),
      tool: c.req.param('name'),
      via: 'api',
      at: startedAt.toISOString(),
      ms: Math.round(performance.now() - t0),
      args: clip(asJson(args), MAX_ARGS_CHARS),
      outcome: !ok ? 'failed' : reply?.isError ? 'error' : 'ok',
      status: c.res.status,
      summary: clip(ok ? textOf(reply) : String(reply?.error ?? `HTTP ${c.res.status}`), MAX_SUMMARY_CHARS),
    })
  })

  router.post('/mcp', async (c, next) => {
    const startedAt = new Date()
    const t0 = performance.now()
    const calls = mcpToolCalls(
      await c.req.raw
        .clone()
        .json()
        .catch(() => null),
    )
    await next()
    if (calls.length === 0) return
    const status = c.res.status
    const contentType = c.res.headers.get('content-type') ?? ''
    const answer = c.res.clone()
    // The result arrives at the end of an SSE body the client is still reading: log it then, off the request path.
    void answer
      .text()
      .catch(() => '')
      .then((text) => {
        const ms = Math.round(performance.now() - t0)
        const responses = rpcResponses(contentType, text)
        for (const call of calls) {
          const response = responses.find((r) => r.id === call.id)
          const outcome = response?.result ? (response.result.isError ? 'error' : 'ok') : 'failed'
          const summary = response?.result
            ? textOf(response.result)
            : (response?.error?.message ?? `no result (HTTP ${status})`)
          void record(c, {
            id: randomUUID(),
            tool: call.name,
            via: 'mcp',
            at: startedAt.toISOString(),
            ms,
            args: clip(asJson(call.args), MAX_ARGS_CHARS),
            outcome,
            status,
            summary: clip(summary, MAX_SUMMARY_CHARS),
          })
        }
      })
  })

  router.openapi(
    createRoute({
      method: 'get',
      path: '/v1/tool-calls',
      operationId: 'listToolCalls',
      summary: "The caller's recent tool calls through /api/tools and /mcp, newest first.",
      security,
      request: { query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) }) },
      responses: {
        200: {
          description: 'Recent tool calls',
          content: { 'application/json': { schema: z.object({ entries: z.array(ToolCallEntrySchema) }) } },
        },
        ...commonErrors(),
      },
    }),
    async (c) => {
      const entries = await log.list(c.get('who'), c.req.valid('query').limit)
      return c.json({ entries: entries.map(({ who: _who, ...entry }) => entry) }, 200)
    },
  )

  router.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/tool-calls',
      operationId: 'clearToolCalls',
      summary: "Forgets the caller's tool calls.",
      security,
      responses: {
        200: {
          description: 'How many entries were removed',
          content: { 'application/json': { schema: z.object({ deleted: z.number() }) } },
        },
        ...commonErrors(),
      },
    }),
    async (c) => c.json({ deleted: await log.clear(c.get('who')) }, 200),
  )
  return router
}
