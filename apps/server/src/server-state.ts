import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import type { Logger } from 'pino'
import { type Authenticator, createAuthenticator } from './authenticator.js'
import { type ClientLimiter, createClientLimiter } from './client-limiter.js'
import { type HistoryStore, createHistoryStore } from './history-store.js'
import { type Metrics, createMetrics } from './prometheus-metrics.js'
import { type SearchSlots, createSearchSlots } from './search-slots.js'
import { type GuardedRedis, createGuardedRedis } from './guarded-redis.js'
import { type SearchClaims, type SharedCache, createSearchClaims, createSharedCache } from './shared-stores.js'
import { type ToolCallLog, createToolCallLog } from './tool-log.js'
import type { ServerOptions } from './settings.js'

/** Tool calls kept per caller for the web app's timeline. */
const TOOL_CALLS_KEPT = 200

/** Everything the server keeps between requests: Redis-or-memory state, limits, auth and metrics. */
export interface ServerState {
  redis: GuardedRedis
  /** Cross-instance single-flight of cache-miss searches. */
  claims: SearchClaims
  sharedCache: SharedCache
  searchSlots: SearchSlots
  history: HistoryStore
  toolCallLog: ToolCallLog
  limiter: ClientLimiter
  auth: Authenticator
  metrics: Metrics
}

/** Creates the server's state from its settings; Redis is used when `redisUrl` is set, memory and files otherwise. */
export function createServerState(settings: ServerOptions, logger: Logger): ServerState {
  const shared = createGuardedRedis({
    redisUrl: settings.redisUrl,
    prefix: settings.redisPrefix,
    timeoutMs: settings.redisTimeoutMs,
    logger,
  })
  return {
    redis: shared,
    claims: createSearchClaims(shared, randomUUID()),
    sharedCache: createSharedCache(shared),
    searchSlots: createSearchSlots(settings.maxConcurrentSearches),
    history: createHistoryStore(shared, { file: join(settings.dataDir, 'history.jsonl'), max: settings.historyMax }),
    toolCallLog: createToolCallLog(shared, { max: TOOL_CALLS_KEPT }),
    limiter: createClientLimiter(shared, { limit: settings.clientRateLimit, windowMs: settings.clientRateWindowMs }),
    auth: createAuthenticator(settings.apiKeys),
    metrics: createMetrics(),
  }
}
