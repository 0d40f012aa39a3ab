import type { ProviderName } from '@search-layer/core'
import type { ProviderReport, SearchProgress } from './response.js'

/** What the roster needs from the search it serves. */
export interface RosterOptions {
  /** Every registered provider, in registry order: each gets a report. */
  ids: readonly ProviderName[]
  /** Why the search does not use a provider (its report's reason until it is activated). */
  notUsedReason: (name: ProviderName) => string
  /** Who stands in for a provider, in order (already restricted to the request's `sources`). */
  fallbacksOf: (name: ProviderName) => ProviderName[]
  /** Why a provider cannot be called now (no key, resting, over budget), or `undefined` when it can. */
  unavailable: (name: ProviderName) => Promise<string | undefined>
  emit: (event: SearchProgress) => void
}

/** Who takes part in one search: asked from the start, or standing in for one that is missing or failed. */
export interface Roster {
  /** One report per registered provider; the fan-out fills in the active ones' calls. */
  readonly reports: Record<ProviderName, ProviderReport>
  /** Active provider → the provider it stands in for (`undefined` for a primary). */
  readonly active: ReadonlyMap<ProviderName, ProviderName | undefined>
  /** Every provider considered so far, usable or not. */
  readonly tried: ReadonlySet<ProviderName>
  /**
   * Makes `name` take part (standing in for `standIn`) if it can be called; when it cannot, its stand-ins are tried
   * in order instead. A provider is considered once per search. Resolves whether `name` itself is active.
   */
  activate(name: ProviderName, standIn?: ProviderName): Promise<boolean>
  /** Leaves `name` out of this search for `reason` (considered, not asked), as a candidate for `standIn` if given. */
  passOver(name: ProviderName, reason: string, standIn?: ProviderName): void
}

/** Creates the roster of one search: every provider starts as skipped ("not used"), until activated. */
export function createRoster({ ids, notUsedReason, fallbacksOf, unavailable, emit }: RosterOptions): Roster {
  const reports = Object.fromEntries(
    ids.map((name) => [name, { status: 'skipped', results: 0, ms: 0, calls: 0, reason: notUsedReason(name) }]),
  ) as Record<ProviderName, ProviderReport>
  const active = new Map<ProviderName, ProviderName | undefined>()
  const tried = new Set<ProviderName>()
  const activate = async (name: ProviderName, standIn?: ProviderName): Promise<boolean> => {
    if (tried.has(name)) return active.has(name)
    tried.add(name)
    const reason = await unavailable(name)
    const standingIn = standIn ? { fallback_for: standIn } : {}
    if (reason) {
      reports[name] = { status: 'skipped', results: 0, ms: 0, calls: 0, reason, ...standingIn }
      emit({ type: 'skipped', provider: name, reason })
      for (const next of fallbacksOf(name)) if (await activate(next, name)) break
      return false
    }
    active.set(name, standIn)
    reports[name] = { status: 'ok', results: 0, ms: 0, calls: 0, ...standingIn }
    return true
  }
  const passOver = (name: ProviderName, reason: string, standIn?: ProviderName) => {
    if (tried.has(name)) return
    tried.add(name)
    reports[name] = {
      status: 'skipped',
      results: 0,
      ms: 0,
      calls: 0,
      reason,
      ...(standIn && { fallback_for: standIn }),
    }
    emit({ type: 'skipped', provider: name, reason })
  }
  return { reports, active, tried, activate, passOver }
}
