import {
  type Intent,
  type Mode,
  type ProviderCapability,
  type ResolvedProviderDefinition,
  resolveProviderDefinition,
} from '@search-layer/core'
import { cjkLanguage } from '@search-layer/core/text'
import { bochaDefinition } from '@search-layer/providers-bocha'
import { braveDefinition } from '@search-layer/providers-brave'
import { duckduckgoDefinition } from '@search-layer/providers-duckduckgo'
import { exaDefinition } from '@search-layer/providers-exa'
import { githubDefinition } from '@search-layer/providers-github'
import { grokDefinition } from '@search-layer/providers-grok'
import { hackernewsDefinition } from '@search-layer/providers-hackernews'
import { searxngDefinition } from '@search-layer/providers-searxng'
import { stackexchangeDefinition } from '@search-layer/providers-stackexchange'
import { tavilyDefinition } from '@search-layer/providers-tavily'
import { wikipediaDefinition } from '@search-layer/providers-wikipedia'

/**
 * The providers `createSearchLayer()` uses when given none, their defaults applied; add a plug-in with
 * `[...builtInProviders, mine]`. The four keyed engines first, then the keyless fallbacks and the verticals (see each
 * definition's `routing`).
 */
export const builtInProviders: readonly ResolvedProviderDefinition[] = Object.freeze(
  [
    braveDefinition,
    exaDefinition,
    tavilyDefinition,
    grokDefinition,
    searxngDefinition,
    duckduckgoDefinition,
    wikipediaDefinition,
    hackernewsDefinition,
    githubDefinition,
    stackexchangeDefinition,
    bochaDefinition,
  ].map(resolveProviderDefinition),
)

/**
 * A source that needs no key: a keyless one, or a fallback engine (free by definition: SearXNG needs only its
 * instance's URL). `SEARCH_LAYER_KEYLESS=off` turns these off.
 */
export const needsNoKey = (definition: Pick<ResolvedProviderDefinition, 'routing' | 'keyless'>): boolean =>
  definition.keyless || definition.routing === 'fallback'

/** Which providers one mode calls first, and who stands in (in order) when one is missing, resting or failing. */
export interface SourcePlan {
  primary: readonly string[]
  fallbacks: Readonly<Record<string, readonly string[]>>
}

/**
 * One place in a mode: the best provider with `capability` takes it, the others with it stand in, then those with
 * `orElse`. A later slot never draws on providers holding an earlier slot's `capability`: those are that slot's.
 */
interface Slot {
  capability: ProviderCapability
  orElse?: ProviderCapability
}

/**
 * fast = the best question-answering index plus a web index; answer = a written answer plus a web index;
 * deep = every web provider at once, no stand-ins needed.
 */
const MODE_SLOTS: Record<Exclude<Mode, 'deep'>, readonly Slot[]> = {
  fast: [{ capability: 'qa' }, { capability: 'web' }],
  answer: [{ capability: 'answer', orElse: 'qa' }, { capability: 'web' }],
}
const DEEP_CAPABILITY: ProviderCapability = 'web'

/**
 * The providers with `capability`, best first: those listing it earlier among their capabilities (they are built for
 * it), then by `priority`.
 */
export function rankByCapability(
  definitions: readonly ResolvedProviderDefinition[],
  capability: ProviderCapability,
): ResolvedProviderDefinition[] {
  return definitions
    .filter((d) => d.capabilities.includes(capability))
    .map((d) => ({ d, at: d.capabilities.indexOf(capability) }))
    .sort((a, b) => a.at - b.at || a.d.priority - b.d.priority)
    .map(({ d }) => d)
}

/**
 * Every mode's `SourcePlan`, derived from the engines' capabilities and priorities. Pure.
 *
 * Only engines take part: a vertical lists `qa` (Wikipedia, Stack Exchange) or `web` (Bocha) too, but it covers one
 * site or one region, so letting it fill fast mode's `qa` slot (standing in for Exa) or join every deep search would
 * quietly narrow a general search to that site. Verticals join by intent instead (`verticalsFor`); fallback engines
 * only when no engine is configured (`planFallback`).
 */
export function planSources(all: readonly ResolvedProviderDefinition[]): Record<Mode, SourcePlan> {
  const definitions = all.filter((d) => d.routing === 'engine')
  const deep = [...definitions]
    .filter((d) => d.capabilities.includes(DEEP_CAPABILITY))
    .sort((a, b) => a.priority - b.priority)
    .map((d) => d.id)
  return {
    fast: planSlots(definitions, MODE_SLOTS.fast),
    deep: { primary: deep, fallbacks: {} },
    answer: planSlots(definitions, MODE_SLOTS.answer),
  }
}

function planSlots(definitions: readonly ResolvedProviderDefinition[], slots: readonly Slot[]): SourcePlan {
  const primary: string[] = []
  const fallbacks: Record<string, string[]> = {}
  const claimed = new Set<string>()
  for (const slot of slots) {
    const own = rankByCapability(definitions, slot.capability)
    const extra = slot.orElse ? rankByCapability(definitions, slot.orElse) : []
    const candidates = [...new Set([...own, ...extra].map((d) => d.id))].filter((id) => !claimed.has(id))
    for (const d of own) claimed.add(d.id)
    const [first, ...rest] = candidates
    if (first === undefined || primary.includes(first)) continue
    primary.push(first)
    if (rest.length > 0) fallbacks[first] = rest
  }
  return { primary, fallbacks }
}

/**
 * The plan when no engine is configured: the best fallback engine (by `priority`: a SearXNG instance when one is
 * set, before DuckDuckGo), the others standing in for it in order. Pure.
 */
export function planFallback(definitions: readonly ResolvedProviderDefinition[]): SourcePlan {
  const [first, ...rest] = definitions
    .filter((d) => d.routing === 'fallback')
    .sort((a, b) => a.priority - b.priority)
    .map((d) => d.id)
  if (first === undefined) return { primary: [], fallbacks: {} }
  return { primary: [first], fallbacks: rest.length > 0 ? { [first]: rest } : {} }
}

/** The vertical capabilities each intent asks for: the best vertical with each joins the search. */
export const INTENT_VERTICALS: Readonly<Record<Intent, readonly ProviderCapability[]>> = {
  resource: ['code'],
  tutorial: ['qa'],
  factual: ['reference'],
  exploratory: ['reference'],
  news: ['news'],
  status: ['news'],
  comparison: [],
}

/**
 * What a query's language asks for on top of its intent. A Chinese query gets a regional web index (a vertical
 * listing `web`: Bocha, when its key is set) and a reference (Wikipedia searches zh and en for it). Japanese and
 * Korean get a reference only (Wikipedia reads the script and searches ja or ko): the Chinese web index is not theirs.
 */
export const LANGUAGE_VERTICALS: Readonly<Record<string, readonly ProviderCapability[]>> = {
  zh: ['web', 'reference'],
  ja: ['reference'],
  ko: ['reference'],
}

/** The query's language as the vertical table knows it, from its script (core's `cjkLanguage`): `ja` (kana), `ko` (Hangul), `zh` (Han only), else none. */
export function queryLanguage(query: string): string | undefined {
  return cjkLanguage(query)
}

/** A vertical a search asks, and the capability it was asked for. */
export interface VerticalChoice {
  id: string
  capability: ProviderCapability
  /** Why: `tutorial searches ask for qa`, `Chinese queries ask for web`. */
  why: string
}

/**
 * The verticals a search with `intent` and `query` asks: for each capability the intent and the query's language ask
 * for, the vertical best at it (`rankByCapability`). No intent (v1 behaviour) asks none. Pure.
 */
export function verticalsFor(
  definitions: readonly ResolvedProviderDefinition[],
  intent: Intent | null,
  query: string,
): VerticalChoice[] {
  if (intent === null) return []
  const verticals = definitions.filter((d) => d.routing === 'vertical')
  const language = queryLanguage(query)
  const asked = [
    ...INTENT_VERTICALS[intent].map((capability) => ({ capability, why: `${intent} searches ask for ${capability}` })),
    ...(language ? (LANGUAGE_VERTICALS[language] ?? []) : []).map((capability) => ({
      capability,
      why: `${language} queries ask for ${capability}`,
    })),
  ]
  const chosen: VerticalChoice[] = []
  for (const { capability, why } of asked) {
    const best = rankByCapability(verticals, capability)[0]
    if (best && !chosen.some((c) => c.id === best.id)) chosen.push({ id: best.id, capability, why })
  }
  return chosen
}

/** Whose written answer leads the response when several gave one: the best at `answer` first. */
export function answerPreference(definitions: readonly ResolvedProviderDefinition[]): string[] {
  return rankByCapability(definitions, 'answer').map((d) => d.id)
}

/** `planSources(builtInProviders)`: the built-in engines' plan per mode. */
export const SOURCE_MATRIX: Record<Mode, SourcePlan> = planSources(builtInProviders)
