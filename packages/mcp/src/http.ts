import type { SearchLayer } from '@search-layer/engine'
import { createSearchLayer } from '@search-layer/engine'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { type ClientKey, cancellationRegistry } from './_cancellation.js'
import { readSingleMessage } from './_single-message.js'
import { type McpServerOptions, createMcpServer } from './server.js'

/** A web-standard request handler: mount it with Hono as `app.all('/mcp', (c) => handler(c.req.raw))`. */
export type McpHttpHandler = (request: Request) => Promise<Response>

/** Options of `createMcpHttpHandler`. */
export interface McpHttpHandlerOptions extends McpServerOptions {
  /** Answer with one JSON body instead of an SSE stream (no progress notifications then). Default false. */
  jsonResponse?: boolean
  /**
   * Tells clients apart, so a `notifications/cancelled` stops only its own client's call; default the request's
   * `Authorization` header (hashed). Behind a proxy without authentication, key by the client's address.
   */
  clientKey?: ClientKey
}

/**
 * Creates a stateless MCP Streamable HTTP handler on the SDK's web-standard transport: each POST gets a fresh
 * server and transport (sharing one search layer, so cache, circuits and budgets persist), streams progress and
 * the result as SSE, and is closed when its response ends. GET and DELETE answer 405 (no sessions, no standalone
 * stream). A JSON-RPC batch (an array) is refused with -32600 before any of it runs: MCP 2025-06-18 removed
 * batching, and one POST carrying many calls would slip past a per-request rate limit. A `notifications/cancelled`
 * reaches the call it names (see `clientKey`): its server closes, and the search or fetch upstream is cancelled.
 * Authentication is the mounting app's job.
 */
export function createMcpHttpHandler(options: McpHttpHandlerOptions = {}): McpHttpHandler {
  const { jsonResponse = false, clientKey, ...serverOptions } = options
  const cancellations = cancellationRegistry(clientKey)
  const layer: SearchLayer =
    options.layer ??
    createSearchLayer({
      ...(options.env && { env: options.env }),
      ...(options.providers && { providers: options.providers }),
    })
  return async (request) => {
    if (request.method !== 'POST') {
      return Response.json(
        {
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless, use POST.' },
          id: null,
        },
        { status: 405, headers: { allow: 'POST' } },
      )
    }
    const body = await readSingleMessage(request)
    if (!body.ok) return body.response
    cancellations.cancel(request, body.message)
    const server = await createMcpServer({ ...serverOptions, layer })
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: jsonResponse,
    })
    let closed = false
    const close = async () => {
      if (closed) return
      closed = true
      forget()
      await transport.close().catch(() => {})
      await server.close().catch(() => {})
    }
    const forget = cancellations.track(request, body.message, close)
    try {
      await server.connect(transport)
      const response = await transport.handleRequest(request, { parsedBody: body.message })
      if (!response.body) {
        await close()
        return response
      }
      return new Response(closeWhenDone(response.body, close), {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      })
    } catch (error) {
      await close()
      const message = error instanceof Error ? error.message : String(error)
      return Response.json(
        { jsonrpc: '2.0', error: { code: -32603, message: `Internal error: ${message}` }, id: null },
        { status: 500 },
      )
    }
  }
}

// A stateless server lives exactly as long as its response: close it when the body ends or the client goes away.
function closeWhenDone(body: ReadableStream<Uint8Array>, close: () => Promise<void>): ReadableStream<Uint8Array> {
  const reader = body.getReader()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read()
      if (done) {
        controller.close()
        await close()
      } else controller.enqueue(value)
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => {})
      await close()
    },
  })
}
