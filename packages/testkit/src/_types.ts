import type { IncomingMessage, ServerResponse } from 'node:http'
import type { EmulatedService } from './types.js'

/** What a route produces; the server writes it (headers, JSON/text/Buffer body or a custom stream). */
export interface Reply {
  status: number
  headers?: Record<string, string>
  /** Objects are sent as JSON; strings and Buffers as-is. */
  body?: unknown
  /** Takes over the response (SSE, endless bodies). */
  stream?: (res: ServerResponse) => void
}

/** Everything a route needs to answer one request. */
export interface RouteContext {
  service: EmulatedService
  method: string
  /** Path below the service prefix, e.g. `/res/v1/web/search` for brave. */
  path: string
  query: URLSearchParams
  headers: Record<string, string>
  body: unknown
  rawBody: Buffer
  now: Date
  /** Base URL of this service on the emulator, for links (GitHub Link headers, redirects). */
  baseUrl: string
  req: IncomingMessage
}

/** One vendor's routes plus its real error format. */
export interface ServiceRoutes {
  handle(ctx: RouteContext): Reply | Promise<Reply>
  /** The vendor's error body for a status (used by injected faults). */
  error(status: number, code: string | undefined, ctx: RouteContext): Reply
}
