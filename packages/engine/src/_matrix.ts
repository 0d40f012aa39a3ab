import type { Mode, ProviderName } from '@search-layer/core'

/**
 * Which providers a mode calls, and who stands in when one is missing, resting or failing.
 * Brave takes part in every mode; fast = Exa (+ Brave) with Grok as Exa's stand-in;
 * deep = all four; answer = Tavily's AI answer (+ Brave), Grok standing in since it answers too.
 */
export const SOURCE_MATRIX: Record<
  Mode,
  { primary: readonly ProviderName[]; fallbacks: Partial<Record<ProviderName, readonly ProviderName[]>> }
> = {
  fast: { primary: ['exa', 'brave'], fallbacks: { exa: ['grok', 'tavily'], brave: ['exa', 'grok'] } },
  deep: { primary: ['brave', 'exa', 'tavily', 'grok'], fallbacks: {} },
  answer: { primary: ['tavily', 'brave'], fallbacks: { tavily: ['grok', 'exa'], brave: ['exa'] } },
}
