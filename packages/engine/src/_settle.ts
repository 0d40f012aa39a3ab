import type { ProviderName } from '@search-layer/core'
import { type LayerParts, definitionOf } from './_layer.js'
import type { Roster } from './_roster.js'
import type { Strategy } from './_strategy.js'
import type { ParsedSearchRequest } from './request.js'

// When a search stops waiting. Real engines answer at very different speeds (Brave in ~0.4 s, Grok's web search
// in 5–20 s) and the fast ones' results are mostly what the slow one would add: a search waits for the engines its
// mode is built on, gives the others a grace, and returns. Who is waited for is decided from the plan, never from
// a clock, so the same search waits for the same engines every time.

/** The shortest grace the engines still running get once the awaited ones are done (ms). */
export const MIN_GRACE_MS = 300

/** When a search settles: whose calls it waits for, and how long it then gives the others. */
export interface SettleRule {
  /** Whether the search waits for this provider's calls. */
  awaited: (name: ProviderName) => boolean
  /** The grace given to the calls still running, asked at the moment the awaited ones are done (ms). */
  graceMs: () => number
}

/**
 * The settle rule of one search, or `undefined` when it waits for every call (`wait: "all"`, or nothing to wait
 * for first). Fast and answer modes wait for their mode's engines (a stand-in counts as the engine it stands in
 * for); deep mode for the engines a fast search would ask (the best question-answering index and the best web
 * index), the other engines and every vertical get the grace. With no engine configured, the keyless fallback
 * engine is waited for.
 */
export function settleRule(
  layer: LayerParts,
  req: ParsedSearchRequest,
  { mode }: Strategy,
  roster: Pick<Roster, 'active'>,
  { noEngine, startedAt }: { noEngine: boolean; startedAt: number },
): SettleRule | undefined {
  if (req.wait === 'all') return undefined
  const plan = noEngine ? layer.fallbackPlan : layer.sourcePlans[mode === 'deep' ? 'fast' : mode]
  const active = (name: ProviderName) => roster.active.has(name)
  const firstActive = plan.primary.flatMap((p) => [p, ...(plan.fallbacks[p] ?? [])].find(active) ?? [])
  // A search restricted to other sources (`sources`) waits for the engines among them.
  const awaitedSet = new Set(
    firstActive.length > 0
      ? firstActive
      : [...roster.active.keys()].filter((name) => definitionOf(layer, name).routing !== 'vertical'),
  )
  if (awaitedSet.size === 0) return undefined
  const patience = req.patienceMs
  return {
    awaited: (name) => {
      const standsInFor = roster.active.get(name)
      return awaitedSet.has(name) || (standsInFor !== undefined && awaitedSet.has(standsInFor))
    },
    graceMs: () => patience ?? Math.max(MIN_GRACE_MS, Math.round((layer.now() - startedAt) / 2)),
  }
}
