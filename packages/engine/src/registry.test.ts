import { type ResolvedProviderDefinition, validateProviderDefinition } from '@search-layer/core'
import { describe, expect, it } from 'vitest'
import {
  type SourcePlan,
  answerPreference,
  builtInProviders,
  planFallback,
  planSources,
  verticalsFor,
} from './registry.js'

// The table the engine used before sources were derived from capabilities (engine/src/_matrix.ts).
const OLD_MATRIX: Record<'fast' | 'deep' | 'answer', SourcePlan> = {
  fast: { primary: ['exa', 'brave'], fallbacks: { exa: ['grok', 'tavily'], brave: ['exa', 'grok'] } },
  deep: { primary: ['brave', 'exa', 'tavily', 'grok'], fallbacks: {} },
  answer: { primary: ['tavily', 'brave'], fallbacks: { tavily: ['grok', 'exa'], brave: ['exa'] } },
}

/**
 * The engine's activation rules on a plan: primaries first, a missing provider's stand-ins in order (one already
 * tried counts as it went), and on a failed call the first stand-in that is not already a primary.
 */
function simulate(plan: SourcePlan, unavailable: ReadonlySet<string>, failing: ReadonlySet<string>) {
  const active = new Map<string, string | undefined>()
  const tried = new Set<string>()
  const fallbacksOf = (name: string) => plan.fallbacks[name] ?? []
  const activate = (name: string, standIn?: string): boolean => {
    if (tried.has(name)) return active.has(name)
    tried.add(name)
    if (unavailable.has(name)) {
      for (const next of fallbacksOf(name)) if (activate(next, name)) break
      return false
    }
    active.set(name, standIn)
    return true
  }
  for (const name of plan.primary) activate(name)
  const calls = [...active.keys()].map((name) => `${name}:planned`)
  const queue = [...active.keys()]
  while (queue.length > 0) {
    const name = queue.shift()!
    if (!failing.has(name)) continue
    for (const next of fallbacksOf(name)) {
      if (active.has(next) && active.get(next) === undefined) break
      if (activate(next, name)) {
        if (!calls.some((c) => c.startsWith(`${next}:`))) {
          calls.push(`${next}:for-${name}`)
          queue.push(next)
        }
        break
      }
    }
  }
  return { active: [...active].sort(), calls: calls.sort() }
}

const ids = ['brave', 'exa', 'tavily', 'grok']
const subsets = Array.from({ length: 1 << ids.length }, (_, mask) => new Set(ids.filter((_, i) => mask & (1 << i))))

describe('sources derived from capabilities and priority', () => {
  const derived = planSources(builtInProviders)

  it.each(['fast', 'deep', 'answer'] as const)(
    '%s: every combination of missing and failing built-in providers runs the same calls as the old table',
    (mode) => {
      for (const unavailable of subsets)
        for (const failing of subsets)
          expect(
            simulate(derived[mode], unavailable, failing),
            JSON.stringify({ mode, unavailable: [...unavailable], failing: [...failing] }),
          ).toEqual(simulate(OLD_MATRIX[mode], unavailable, failing))
    },
  )

  it('keeps the primaries in the old order', () => {
    for (const mode of ['fast', 'deep', 'answer'] as const)
      expect(derived[mode].primary).toEqual(OLD_MATRIX[mode].primary)
  })

  it("prefers Tavily's answer, then Grok's", () => {
    expect(answerPreference(builtInProviders)).toEqual(['tavily', 'grok'])
  })

  it('places a web-only plug-in in deep mode and as the web index stand-in, never by its name', () => {
    const plugin = {
      ...builtInProviders[0]!,
      id: 'my-index',
      capabilities: ['web'],
      priority: 15,
    } as ResolvedProviderDefinition
    const plan = planSources([...builtInProviders, plugin])
    expect(plan.deep.primary).toEqual(['brave', 'my-index', 'exa', 'tavily', 'grok'])
    expect(plan.fast.fallbacks.brave).toEqual(['my-index'])
    expect(plan.answer.fallbacks.brave).toEqual(['my-index', 'exa'])
  })

  it('works with a single provider and with none', () => {
    const only = planSources([builtInProviders[0]!])
    expect(only.fast).toEqual({ primary: ['brave'], fallbacks: {} })
    expect(only.answer).toEqual({ primary: ['brave'], fallbacks: {} })
    expect(planSources([]).deep.primary).toEqual([])
  })
})

describe('keyless fallbacks and verticals', () => {
  it('no vertical or fallback enters a mode plan: the plans are the four engines', () => {
    const engines = builtInProviders.filter((d) => ['brave', 'exa', 'tavily', 'grok'].includes(d.id))
    expect(planSources(builtInProviders)).toEqual(planSources(engines))
  })

  it('with no engine configured, SearXNG searches first and DuckDuckGo stands in for it', () => {
    expect(planFallback(builtInProviders)).toEqual({ primary: ['searxng'], fallbacks: { searxng: ['duckduckgo'] } })
    expect(planFallback(builtInProviders.slice(0, 4))).toEqual({ primary: [], fallbacks: {} })
  })

  it.each([
    ['resource', 'tokio', ['github']],
    ['tutorial', 'tokio', ['stackexchange']],
    ['factual', 'tokio', ['wikipedia']],
    ['exploratory', 'tokio', ['wikipedia']],
    ['news', 'tokio', ['hackernews']],
    ['status', 'tokio', ['hackernews']],
    ['comparison', 'Bun vs Deno', []],
    ['tutorial', 'Rust 异步编程 教程', ['stackexchange', 'bocha', 'wikipedia']],
    ['factual', '什么是 WebTransport', ['wikipedia', 'bocha']],
    [null, 'Rust 异步编程', []],
    // Kanji beside kana is Japanese: Japanese Wikipedia, not the Chinese web index.
    ['tutorial', 'Rust の非同期プログラミング 入門', ['stackexchange', 'wikipedia']],
    ['factual', 'ラーメンとは', ['wikipedia']],
    ['factual', '쿠버네티스란 무엇인가', ['wikipedia']],
  ] as const)('%s "%s" asks %j', (intent, query, expected) => {
    expect(verticalsFor(builtInProviders, intent, query).map((v) => v.id)).toEqual(expected)
  })

  it('a plug-in vertical best at a capability takes its place, by capability and priority, not name', () => {
    const docs = { ...builtInProviders[0]!, id: 'my-docs', routing: 'vertical', capabilities: ['qa'], priority: 1 }
    const chosen = verticalsFor([...builtInProviders, docs as ResolvedProviderDefinition], 'tutorial', 'tokio')
    expect(chosen).toEqual([{ id: 'my-docs', capability: 'qa', why: 'tutorial searches ask for qa' }])
  })
})

describe('the built-in definitions', () => {
  // A layer trusts them and skips their validation at start-up (see checkProviderDefinitions): this is the check.
  it.each(builtInProviders.map((d) => [d.id, d] as const))('%s is a valid definition', (id, definition) => {
    expect(validateProviderDefinition(definition, `built-in ${id}`)).toBe(definition)
  })
})
