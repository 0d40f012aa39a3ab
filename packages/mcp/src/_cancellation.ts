import { createHash } from 'node:crypto'

/**
 * Routes MCP cancellations across the stateless HTTP handler's requests. Each POST gets its own server, so the
 * `notifications/cancelled` a client sends for a running `tools/call` arrives at a fresh server that knows nothing
 * of it. Calls in flight are kept here by client and JSON-RPC id; a cancellation from the same client closes the
 * call's server, which aborts its handler's signal and with it the search or fetch upstream.
 *
 * A client is told apart by `clientKey(request)` (default: its `Authorization` header, hashed), so with
 * authentication on one key's client can never cancel another's call.
 */
export interface CancellationRegistry {
  /** Registers a running request; returns the function that forgets it when its response ends. */
  track(request: Request, message: unknown, close: () => Promise<void>): () => void
  /** Closes the call a `notifications/cancelled` names, if this client has it running; true when one was. */
  cancel(request: Request, message: unknown): boolean
}

/** How requests are told apart by client. */
export type ClientKey = (request: Request) => string

const defaultClientKey: ClientKey = (request) =>
  createHash('sha256')
    .update(request.headers.get('authorization') ?? '')
    .digest('base64url')

// Both a request's `id` and a cancellation's `params.requestId` are a string or a number (JSON-RPC).
const idOf = (value: unknown): string | undefined =>
  typeof value === 'string' || typeof value === 'number' ? `${typeof value}:${value}` : undefined

const field = (value: unknown, name: string): unknown =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined

export function cancellationRegistry(clientKey: ClientKey = defaultClientKey): CancellationRegistry {
  const running = new Map<string, () => Promise<void>>()
  const keyOf = (request: Request, id: string | undefined) => (id ? `${clientKey(request)}\u0000${id}` : undefined)
  return {
    track(request, message, close) {
      const key = field(message, 'method') === undefined ? undefined : keyOf(request, idOf(field(message, 'id')))
      if (!key) return () => {}
      running.set(key, close)
      return () => {
        if (running.get(key) === close) running.delete(key)
      }
    },
    cancel(request, message) {
      if (field(message, 'method') !== 'notifications/cancelled') return false
      const key = keyOf(request, idOf(field(field(message, 'params'), 'requestId')))
      const close = key ? running.get(key) : undefined
      if (!close || !key) return false
      running.delete(key)
      void close()
      return true
    },
  }
}
