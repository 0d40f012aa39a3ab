import type { ProviderName } from '@search-layer/core'
import { type AssembleContext, assembleResults } from './_assemble.js'
import type { CallOutcome } from './_fan-out.js'

type Scoring = typeof import('@search-layer/scoring')

/**
 * Ranks two made-up results once per process, while the first search's requests are on the wire.
 *
 * Why: a fresh process's first ranking compiles scoring's Unicode patterns (a `\p{L}` class alone takes ~0.7 ms to
 * compile) and runs every step cold: ~6 ms for a CLI deep search's 13 results, against ~3 ms once rehearsed (A/B,
 * measured in the built CLI). The answers are waited for anyway; a long-running process pays this once.
 */
export function warmUpAssembly(scoring: Scoring, context: AssembleContext): void {
  const provider = context.providers[0]
  if (warmed || provider === undefined) return
  warmed = true
  try {
    assembleResults(sampleOutcomes(provider), context, scoring)
  } catch {
    // A rehearsal: the real ranking reports its own errors.
  }
}

let warmed = false

// Latin and Han text, a tracking parameter, a date and a near-duplicate title: the branches a real answer takes.
const sampleOutcomes = (provider: ProviderName): CallOutcome[] => [
  {
    provider,
    query: 'search layer warm up',
    ms: 0,
    results: [
      {
        title: 'Warming up a search pipeline - Example Docs',
        url: 'https://docs.example.com/guide/warm-up?utm_source=feed',
        snippet: 'How the first ranking compiles its patterns. Published Jan 5, 2026; 中文摘要，预热排序。',
        publishedAt: '2026-01-05T00:00:00Z',
        provider,
        rank: 1,
      },
      {
        title: 'Warming up a search pipeline | Example Blog',
        url: 'https://www.example.org/blog/warm-up',
        snippet: 'How the first ranking compiles its patterns, and why it is slow only once.',
        publishedAt: null,
        provider,
        rank: 2,
      },
    ],
  },
]
