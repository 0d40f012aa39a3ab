import type { HttpBindings } from '@hono/node-server'
import type { SearchCallOptions, SearchProgress } from '@search-layer/engine'
import type { Context } from 'hono'

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

/** The caller of the request in `c`, as routes hand it to `AppContext`. */
export const callOf = (c: Context<AppEnv>): AppCall => ({ who: c.get('who'), signal: c.get('signal') })
