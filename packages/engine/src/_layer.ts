import type { PageFetchOptions } from '@search-layer/evidence'
import type { Env, Mode, Provider, ProviderName, ResolvedProviderDefinition } from '@search-layer/core'
import type { ConfigReading } from '@search-layer/core/config'
import type { IntentModelSetting } from './_intent-model.js'
import type { KeyPool } from './_key-pool.js'
import type { UsageStore } from './budget.js'
import type { CacheStore } from './cache.js'
import type { SourcePlan } from './registry.js'

/** What every search of one layer shares: its providers and their protections, built once by `createSearchLayer`. */
export interface LayerParts {
  env: Env
  now: () => number
  definitions: readonly ResolvedProviderDefinition[]
  ids: readonly ProviderName[]
  sourcePlans: Readonly<Record<Mode, SourcePlan>>
  /** Who searches when no engine is configured (`planFallback`). */
  fallbackPlan: SourcePlan
  answerOrder: readonly ProviderName[]
  /** The provider instance a mode calls (answer mode asks for a written answer). */
  providerFor: (name: ProviderName, mode: Mode) => Provider
  /** Each provider's keys, with their circuits, paces and learned limits. */
  pools: ReadonlyMap<ProviderName, KeyPool>
  usage: UsageStore
  monthlyBudgets?: Partial<Record<ProviderName, number>>
  maxCalls: number
  /** What becomes of calls still running when a search settles (`SearchLayerOptions.lateCalls`). */
  lateCalls: 'cancel' | 'finish'
  /** Who may classify a query the rules are unsure of (`SearchLayerOptions.intentModel`). */
  intentModel: IntentModelSetting
  /** Where read pages are kept (the layer's response cache), when it has one. */
  cache?: CacheStore
  /** Options of page-fetch for reading (`SearchLayerOptions.pageFetch`). */
  pageFetch?: PageFetchOptions
}

/**
 * One search's view of its layer: the config files as read once when it started, against which every check and
 * provider call of the search resolves its keys (one `stat` per file and one resolution per provider, where each
 * call once read the files again: ~30 resolutions per deep search).
 */
export interface LayerForSearch extends LayerParts {
  reading: ConfigReading
}

export const definitionOf = (layer: LayerParts, name: ProviderName) => layer.definitions.find((d) => d.id === name)!

export const isConfigured = (layer: LayerForSearch, name: ProviderName, mode: Mode) =>
  layer.providerFor(name, mode).isConfigured(layer.env, layer.reading)
