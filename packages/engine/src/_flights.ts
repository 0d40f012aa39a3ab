import { raceSignal } from './_fan-out.js'
import type { LayerParts } from './_layer.js'
import { type RunHooks, executeSearch } from './_run.js'
import type { ParsedSearchRequest } from './request.js'
import type { SearchResponse } from './response.js'

/** A search run and the callers waiting for it. */
interface InFlightSearch {
  promise: Promise<SearchResponse>
  controller: AbortController
  waiters: number
  /** The run stores its responses in the cache (its request used the cache). */
  stores: boolean
}

type Store = (key: string, response: SearchResponse) => Promise<void>

/**
 * One run per cache key at a time, shared by every caller asking for it (single flight). The run stores its
 * response in the cache (`store`) itself, so the full one its late calls bring (`lateCalls: 'finish'`) is always
 * written after the settled one it replaces.
 */
export function createFlights(state: LayerParts, store: Store | undefined) {
  const inflight = new Map<string, InFlightSearch>()

  function startFlight(flightKey: string, key: string, req: ParsedSearchRequest, hooks: RunHooks): InFlightSearch {
    const controller = new AbortController()
    const stores = req.cache ? store : undefined
    const flight: InFlightSearch = { promise: Promise.resolve() as never, controller, waiters: 0, stores: !!stores }
    const onComplete = (full: SearchResponse) =>
      void flight.promise
        .then(() => stores?.(key, full))
        // The settled answer stays cached; the next miss searches afresh.
        .catch(() => undefined)
    flight.promise = executeSearch(state, req, { ...hooks, signal: controller.signal, onComplete })
      .then(async (response) => {
        await stores?.(key, response)
        return response
      })
      .finally(() => {
        if (inflight.get(flightKey) === flight) inflight.delete(flightKey)
      })
    inflight.set(flightKey, flight)
    return flight
  }

  // A caller who cancels stops waiting at once; the run itself stops when its last caller has gone, and a new
  // caller then starts afresh rather than joining a run that is winding down.
  async function waitFor(flight: InFlightSearch, key: string, signal?: AbortSignal): Promise<SearchResponse> {
    flight.waiters++
    try {
      return await raceSignal(flight.promise, signal)
    } finally {
      flight.waiters--
      if (signal?.aborted && flight.waiters === 0) {
        if (inflight.get(key) === flight) inflight.delete(key)
        flight.controller.abort()
      }
    }
  }

  return {
    /** Joins the run of an identical search, or starts one, and resolves its response. */
    async run(key: string, req: ParsedSearchRequest, hooks: RunHooks): Promise<SearchResponse> {
      // A search that waits for all does not join one that will settle without some engines.
      const flightKey = req.wait === 'all' ? `${key}\u0000all` : key
      const flight = inflight.get(flightKey) ?? startFlight(flightKey, key, req, hooks)
      const response = await waitFor(flight, flightKey, hooks.signal)
      // A caller that joined a run started without the cache stores what it got.
      if (req.cache && store && !flight.stores) await store(key, response)
      return response
    },
  }
}
