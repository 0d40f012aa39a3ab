import type { Env, ProviderDefinition, ProviderName } from '@search-layer/core'
import {
  type KeyStateProblemLog,
  type KeyStateStore,
  type SearchLayerOptions,
  createFileCache,
  createFileKeyStateStore,
  createFileUsageStore,
  createOneShotKeyStateStore,
  defaultCacheDir,
} from '@search-layer/engine'
import { join } from 'node:path'
import { UsageError } from './io.js'

function parsePairs(name: string, value: string, ids: readonly string[]): Partial<Record<ProviderName, number>> {
  const out: Partial<Record<ProviderName, number>> = {}
  for (const pair of value.split(',').filter(Boolean)) {
    const [provider, raw] = pair.split('=')
    const n = Number(raw)
    if (!provider || !ids.includes(provider) || !Number.isFinite(n) || n <= 0) {
      throw new UsageError(
        `${name} must look like "${ids[0]}=20" with providers ${ids.join(', ')} and positive numbers (got "${pair}")`,
      )
    }
    out[provider as ProviderName] = n
  }
  return out
}

/** Engine options for the CLI, and when what it writes in the background is on disk. */
export interface CliEngineOptions extends SearchLayerOptions {
  /** Writes, or waits for, every key-state write so far: a command awaits it before the process exits. */
  settled(): Promise<void>
}

/** A one-shot command's key state: written once, as the command settles (see `createOneShotKeyStateStore`). */
function savedOnSettle(file: string, log: KeyStateProblemLog): KeyStateStore & { settled(): Promise<void> } {
  const store = createOneShotKeyStateStore({ file, log })
  return Object.assign(store, { settled: async () => store.save() })
}

/**
 * The key-state store with its writes off the calls' path: each answer teaches its key's limits, and the file store
 * reads and rewrites the file for each before the call may return, so a search's last answer waited for a chain of
 * file round trips before merging (~5 ms, measured). Writes stay in order (the file store chains them, and its
 * reads wait for them); only the caller no longer waits. A failed write costs a slower next run, as before.
 */
function writeBehind(store: KeyStateStore): KeyStateStore & { settled(): Promise<void> } {
  const pending = new Set<Promise<void>>()
  return {
    get: (provider, keyId) => store.get(provider, keyId),
    set(provider, keyId, state) {
      const write = store.set(provider, keyId, state).catch(() => undefined)
      pending.add(write)
      void write.then(() => pending.delete(write))
      return Promise.resolve()
    },
    settled: async () => {
      await Promise.all(pending)
    },
  }
}

/**
 * Engine options for one CLI process: a disk cache so repeated commands are instant, monthly budgets
 * counted on disk, each key's learned limits and rests kept on disk (`key-state.json`, by key hash, 0600) so the
 * next run starts at the vendor's pace, and rate limits from the environment.
 *   SEARCH_LAYER_CACHE_DIR            cache directory (default ~/.cache/search-layer)
 *   SEARCH_LAYER_RATE_LIMITS          "off" or "brave=20,exa=10" (requests per second)
 *   SEARCH_LAYER_MONTHLY_BUDGETS      "brave=2000,exa=1000" (calls per calendar month)
 */
export function engineOptionsFromEnv(
  env: Env,
  {
    cache,
    providers,
    oneShot = false,
  }: {
    cache: boolean
    providers: readonly ProviderDefinition[]
    /** The process runs one command and exits: key state is kept in memory and written as it settles. */
    oneShot?: boolean
  },
): CliEngineOptions {
  const dir = defaultCacheDir(env)
  const ids = providers.map((d) => d.id)
  const file = join(dir, 'key-state.json')
  // Stored state the engine cannot trust is ignored and said once on stderr, as other warnings are.
  const log: KeyStateProblemLog = (message) => process.stderr.write(`search-layer: warning: ${message}\n`)
  const keyState = oneShot ? savedOnSettle(file, log) : writeBehind(createFileKeyStateStore({ file, log }))
  const options: CliEngineOptions = {
    env,
    providers,
    cache: cache ? createFileCache({ dir: join(dir, 'responses') }) : false,
    keyState,
    settled: keyState.settled,
  }
  const limits = env.SEARCH_LAYER_RATE_LIMITS
  if (limits === 'off' || limits === '0') options.rateLimits = false
  else if (limits) {
    const perSecond = parsePairs('SEARCH_LAYER_RATE_LIMITS', limits, ids)
    options.rateLimits = Object.fromEntries(
      Object.entries(perSecond).map(([p, n = 1]) => [p, { perSecond: n, burst: Math.max(1, Math.ceil(n)) }]),
    )
  }
  if (env.SEARCH_LAYER_MONTHLY_BUDGETS) {
    options.monthlyBudgets = parsePairs('SEARCH_LAYER_MONTHLY_BUDGETS', env.SEARCH_LAYER_MONTHLY_BUDGETS, ids)
    options.usage = createFileUsageStore({ file: join(dir, 'usage.json') })
  }
  return options
}
