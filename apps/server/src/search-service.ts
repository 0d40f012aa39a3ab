import { InputError, redactSecrets } from '@search-layer/core'
import {
  type SearchLayer,
  type SearchProgress,
  type SearchRequest,
  type SearchResponse,
  cacheKey,
} from '@search-layer/engine'
import type { Logger } from 'pino'
import type { Metrics } from './prometheus-metrics.js'
import type { ServerState } from './server-state.js'
import type { AppCall } from './request-env.js'

/** Options of `createSearch`. */
export interface CreateSearchOptions {
  layer: SearchLayer
  state: ServerState
  /** Longest accepted query (`SEARCH_LAYER_MAX_QUERY_CHARS`). */
  maxQueryChars: number
  logger: Logger
}

/** The server's search: one engine search wrapped in single-flight, search slots, metrics and history. */
export interface ServerSearch {
  search(request: SearchRequest, call: AppCall): Promise<SearchResponse>
  /** Throws `InputError` when a query of the request is longer than the server accepts. */
  checkQueryLength(request: SearchRequest): void
}

/** Counts provider calls and their latency by outcome from the engine's progress events. */
function recordProgress(metrics: Metrics, event: SearchProgress): void {
  if (event.type === 'done') {
    metrics.providerCalls.inc({ provider: event.provider, outcome: 'ok' })
    metrics.providerLatency.observe({ provider: event.provider }, event.ms / 1000)
  } else if (event.type === 'failed') {
    metrics.providerCalls.inc({ provider: event.provider, outcome: event.kind })
    metrics.providerLatency.observe({ provider: event.provider }, event.ms / 1000)
  } else if (event.type === 'skipped') metrics.providerCalls.inc({ provider: event.provider, outcome: 'skipped' })
}

/** Creates the search every route, tool and `/mcp` goes through. */
export function createSearch({ layer, state, maxQueryChars, logger }: CreateSearchOptions): ServerSearch {
  const { redis: shared, claims, sharedCache, searchSlots, history, metrics } = state
  const onProgress = (event: SearchProgress) => recordProgress(metrics, event)

  function checkQueryLength(request: SearchRequest): void {
    const issues: { path: string; message: string }[] = []
    if (typeof request.query === 'string' && request.query.length > maxQueryChars) {
      issues.push({ path: 'query', message: `must be at most ${maxQueryChars} characters` })
    }
    request.queries?.forEach((q, i) => {
      if (typeof q === 'string' && q.length > maxQueryChars)
        issues.push({ path: `queries.${i}`, message: `must be at most ${maxQueryChars} characters` })
    })
    if (issues.length)
      throw new InputError(`Invalid search request: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues)
  }

  /** Claims a cache-miss search across instances; resolves the release of an owned claim, undefined otherwise. */
  async function claimMiss(key: string | undefined, deadlineMs: number, signal: AbortSignal) {
    // A claim only matters for a miss: cached answers skip it, so hot queries never queue behind each other.
    if (key === undefined || !shared.configured || (await sharedCache.has(key))) return undefined
    const claim = await claims.claim(key, deadlineMs + 5000)
    if (claim.owner) return claim.release
    // Another instance is running this very search: wait for it to fill the shared cache.
    await claims.waitFor(key, deadlineMs + 1000, signal)
    return undefined
  }

  /** Takes a search slot for a miss; resolves false for a cached answer, which goes out at once instead of queueing. */
  async function takeSlot(key: string | undefined, signal: AbortSignal): Promise<boolean> {
    if (searchSlots.tryAcquire()) return true
    if (key !== undefined && (await sharedCache.has(key))) return false
    await searchSlots.acquire(signal)
    return true
  }

  async function recordHistory(response: SearchResponse, who: string): Promise<void> {
    try {
      await history.add({
        query: response.query,
        intent: response.intent,
        mode: response.mode,
        when: new Date().toISOString(),
        count: response.count,
        cached: response.cached,
        who,
      })
    } catch (error) {
      // History is a convenience: a full disk must not fail the search.
      logger.warn({ err: redactSecrets((error as Error).message) }, 'could not record history')
    }
  }

  async function search(request: SearchRequest, call: AppCall): Promise<SearchResponse> {
    checkQueryLength(request)
    // Parsed once, by the engine's own schema (registered sources only): the key needs it, and the search takes it
    // without validating it again.
    const parsed = layer.parseRequest(request)
    // The cache key is the whole request serialised: built once, for the claim and the slot checks.
    const key = parsed.cache ? cacheKey(parsed) : undefined
    const release = await claimMiss(key, parsed.deadlineMs, call.signal)
    let slot: boolean
    try {
      slot = await takeSlot(key, call.signal)
    } catch (error) {
      await release?.()
      throw error
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
    await recordHistory(response, call.who)
    return response
  }

  return { search, checkQueryLength }
}
