import type { Mode, ProviderCapability, ProviderDefinition } from '@search-layer/core'
import { braveDefinition } from '@search-layer/providers-brave'
import { exaDefinition } from '@search-layer/providers-exa'
import { grokDefinition } from '@search-layer/providers-grok'
import { tavilyDefinition } from '@search-layer/providers-tavily'

/** The providers `createSearchLayer()` uses when given none; add a plug-in with `[...builtInProviders, mine]`. */
export const builtInProviders: readonly ProviderDefinition[] = Object.freeze([
  braveDefinition,
  exaDefinition,
  tavilyDefinition,
  grokDefinition,
])

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
  definitions: readonly ProviderDefinition[],
  capability: ProviderCapability,
): ProviderDefinition[] {
  return definitions
    .filter((d) => d.capabilities.includes(capability))
    .map((d) => ({ d, at: d.capabilities.indexOf(capability) }))
    .sort((a, b) => a.at - b.at || a.d.priority - b.d.priority)
    .map(({ d }) => d)
}

/** Every mode's `SourcePlan`, derived from the definitions' capabilities and priorities. Pure. */
export function planSources(definitions: readonly ProviderDefinition[]): Record<Mode, SourcePlan> {
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

function planSlots(definitions: readonly ProviderDefinition[], slots: readonly Slot[]): SourcePlan {
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

/** Whose written answer leads the response when several gave one: the best at `answer` first. */
export function answerPreference(definitions: readonly ProviderDefinition[]): string[] {
  return rankByCapability(definitions, 'answer').map((d) => d.id)
}

/** `planSources(builtInProviders)`: the four built-in providers' plan per mode. */
export const SOURCE_MATRIX: Record<Mode, SourcePlan> = planSources(builtInProviders)
