import { readFileSync } from 'node:fs'
import { INTENTS, type Intent } from '@search-layer/core'
import { describe, expect, it } from 'vitest'
import { classifyIntent, INTENT_PRECEDENCE, strategyFor, UNCERTAIN_BELOW } from './index.js'

// The original set: 15+ queries per intent, about half Chinese, mixing the spec's literal phrases with paraphrases.
const ORIGINAL: { query: string; intent: Intent }[] = readFileSync(
  new URL('../test/fixtures/original-queries.jsonl', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line))
const TABLE = Object.fromEntries(
  INTENTS.map((intent) => [intent, ORIGINAL.filter((r) => r.intent === intent).map((r) => r.query)]),
) as unknown as Record<Intent, readonly string[]>

const RULES = { model: false } as const

const ROWS = INTENTS.flatMap((intent) => TABLE[intent].map((query) => ({ intent, query })))

describe('classifyIntent', () => {
  it.each(INTENTS)('has at least 15 queries for %s, about half of them Chinese', (intent) => {
    const queries = TABLE[intent]
    expect(queries.length).toBeGreaterThanOrEqual(15)
    expect(queries.filter((q) => /\p{Script=Han}/u.test(q)).length).toBeGreaterThanOrEqual(
      Math.floor(queries.length / 2),
    )
  })

  it.each(ROWS)('$query → $intent', ({ intent, query }) => {
    const result = classifyIntent(query)
    expect(result.intent).toBe(intent)
    const strategy = strategyFor(intent)
    expect(result.mode).toBe(strategy.mode)
    expect(result.weights).toEqual(strategy.weights)
  })

  it.each([
    // [query, winner, loser]: both intents matched, the more specific (or stronger) one won.
    ['what is the difference between let and const', 'comparison', 'factual'],
    ['what is the latest version of TypeScript', 'status', 'factual'],
    ['latest React news today', 'news', 'status'],
    ['how to use GitHub Actions', 'tutorial', 'resource'],
    ['Bun vs Deno 最新进展', 'comparison', 'status'],
    ['how to compare two strings in Java', 'tutorial', 'comparison'],
    ['什么是 Rust 生态', 'factual', 'exploratory'],
  ] as const)('tie-break (the rules alone): %s → %s over %s', (query, winner, loser) => {
    const result = classifyIntent(query, RULES)
    expect(result.intent).toBe(winner)
    expect(result.signals.some((s) => s.intent === loser)).toBe(true)
    expect(result.signals[0]?.intent).toBe(winner)
  })

  it('lists precedence with every intent exactly once', () => {
    expect([...INTENT_PRECEDENCE].sort()).toEqual([...INTENTS].sort())
  })

  it('reports what matched, with language', () => {
    expect(classifyIntent('Rust 异步编程 教程 step by step').signals).toEqual(
      expect.arrayContaining([
        { intent: 'tutorial', term: '教程', lang: 'zh' },
        { intent: 'tutorial', term: 'step by step', lang: 'en' },
      ]),
    )
  })

  it.each([
    ['Go to the store', 'go to'],
    ['godocs', 'docs'],
    ['newsletter templates', 'news'],
    ['howto', 'how to'],
    ['canvas', 'vs'],
  ])('matches English on word boundaries: %s has no "%s" signal', (query, term) => {
    expect(classifyIntent(query).signals.map((s) => s.term)).not.toContain(term)
  })

  it.each([
    ['新闻学 专业', '新闻'],
    ['我还是不懂', '还是'],
    ['Rust 怎么样', '怎么'],
  ])('matches Chinese as terms: %s has no "%s" signal', (query, term) => {
    expect(classifyIntent(query).signals.map((s) => s.term)).not.toContain(term)
  })

  it('matches English next to Chinese and full-width forms', () => {
    expect(classifyIntent('Bun ｖｓ Deno').intent).toBe('comparison')
    expect(classifyIntent('React教程').intent).toBe('tutorial')
    expect(classifyIntent('Rust的GitHub').intent).toBe('resource')
  })

  it('defaults to exploratory with low confidence when nothing matches (the rules alone)', () => {
    expect(classifyIntent('RISC-V', RULES)).toMatchObject({
      intent: 'exploratory',
      mode: 'deep',
      freshness: null,
      signals: [],
    })
    expect(classifyIntent('RISC-V', RULES).confidence).toBeLessThan(0.5)
  })

  it('is more confident for one clear signal than for a contested or weak one (the rules alone)', () => {
    const clear = classifyIntent('Bun vs Deno', RULES).confidence
    const weak = classifyIntent('React docs', RULES).confidence
    const contested = classifyIntent('what is the latest version of TypeScript', RULES).confidence
    expect(clear).toBeGreaterThan(weak)
    expect(weak).toBeGreaterThan(contested)
    expect(contested).toBeGreaterThan(classifyIntent('RISC-V', RULES).confidence)
  })

  it.each([
    ['Rust news today', 'pd'],
    ['breaking: npm outage', 'pd'],
    ['今天 科技 新闻', 'pd'],
    ['AI news', 'pw'],
    ['本周 Rust 新闻', 'pw'],
    ['AI news this month', 'pw'],
    ['latest Deno progress', 'pm'],
    ['Deno 最新进展', 'pm'],
    ['Deno progress this week', 'pw'],
    ['Deno 最近 进展', 'pw'],
    ['Deno 本月 进展', 'pm'],
    ['current status of Deno right now', 'pw'],
    ['current status of Deno today', 'pw'],
    ['Deno release news today', 'pd'],
    ['Deno status this year', 'pm'],
    ['Bun vs Deno today', 'py'],
    ['what is Deno', null],
  ] as const)('freshness window: %s → %s', (query, window) => {
    expect(classifyIntent(query).freshness).toBe(window)
  })

  it('drops signals below minSignalWeight', () => {
    expect(classifyIntent('about Rust').intent).toBe('exploratory')
    expect(classifyIntent('about Rust', { minSignalWeight: 0.5 }).signals).toEqual([])
    expect(classifyIntent('React docs', { minSignalWeight: 0.7, model: false }).intent).toBe('exploratory')
  })
})

interface LabelledQuery {
  query: string
  intent: Intent
  split: 'tune' | 'holdout'
  note?: string
}

// Real phrasings (typos, mixed Chinese/English, site names, "best X for Y", "X 推荐"); see test/fixtures/README.md.
const REAL: LabelledQuery[] = readFileSync(new URL('../test/fixtures/real-queries.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as LabelledQuery)

function accuracy(
  rows: readonly LabelledQuery[],
  options: { model?: boolean } = {},
): { share: number; misses: string[] } {
  const misses = rows.filter((r) => classifyIntent(r.query, options).intent !== r.intent)
  return {
    share: 1 - misses.length / rows.length,
    misses: misses.map((r) => `${r.query} → ${classifyIntent(r.query).intent}, expected ${r.intent}`),
  }
}

describe('classifyIntent on real phrasing', () => {
  it('has at least 200 labelled queries, half Chinese, every intent, a tune and a held-out split', () => {
    expect(REAL.length).toBeGreaterThanOrEqual(200)
    expect(REAL.filter((r) => /\p{Script=Han}/u.test(r.query)).length).toBeGreaterThanOrEqual(100)
    for (const intent of INTENTS) expect(REAL.filter((r) => r.intent === intent).length).toBeGreaterThanOrEqual(25)
    expect(REAL.filter((r) => r.split === 'holdout').length).toBeGreaterThanOrEqual(60)
  })

  it.each(['tune', 'holdout'] as const)('classifies the %s split with accuracy >= 0.97', (split) => {
    const { share, misses } = accuracy(REAL.filter((r) => r.split === split))
    expect(share, misses.join('\n')).toBeGreaterThanOrEqual(0.97)
  })

  it.each([
    ['awesome list for rust gamedev', 'resource'],
    ['free datasets for sentiment analysis', 'resource'],
    ['开源的 markdown 编辑器 推荐', 'resource'],
    ['best vs code extensions for go', 'resource'],
    ['is github down right now', 'status'],
    ['set up ssh keys for github', 'tutorial'],
    ['max size of a postgres jsonb value', 'factual'],
  ] as const)('%s → %s (issue 24)', (query, intent) => {
    expect(classifyIntent(query).intent).toBe(intent)
  })

  it.each([
    ['is github down right now', 'status'],
    ['set up ssh keys for github', 'tutorial'],
    ['GitHub Copilot 是什么', 'factual'],
    ['what is hacker news karma', 'factual'],
    ['github 挂了吗', 'status'],
  ] as const)('a site named in a question keeps the question intent: %s → %s', (query, intent) => {
    const result = classifyIntent(query)
    expect(result.intent).toBe(intent)
    // The site is still reported, after the signals that decided.
    expect(result.signals.at(-1)?.intent).toBe('resource')
    expect(result.signals[0]?.intent).toBe(intent)
  })

  it.each(['k8s GitHub', 'hacker news', 'Rust的GitHub'])('a site alone still asks for the site: %s', (query) => {
    expect(classifyIntent(query).intent).toBe('resource')
  })

  it('falls back to a shorter Chinese term when the longest runs into the next word', () => {
    // "哪个更" is a term, but the segmenter reads 哪个|更好: "哪个" still counts.
    const result = classifyIntent('mac 和 windows 写代码哪个更好')
    expect(result.intent).toBe('comparison')
    expect(result.signals).toContainEqual({ intent: 'comparison', term: '哪个', lang: 'zh' })
  })
})

describe('classifyIntent confidence', () => {
  it.each([
    ['RISC-V', 'no-signal'],
    ['about Rust', 'weak-signal'],
    ['why Zig', 'weak-signal'],
    ['what is the latest version of TypeScript', 'close-call'],
  ] as const)('the rules alone say they are unsure about %s (%s)', (query, reason) => {
    const result = classifyIntent(query, RULES)
    expect(result.uncertain).toBe(true)
    expect(result.uncertainty).toBe(reason)
    expect(result.confidence).toBeLessThan(UNCERTAIN_BELOW)
  })

  it.each(['Bun vs Deno', 'React docs', 'is github down right now', 'Rust 异步编程 教程'])(
    'is sure about %s and names no reason',
    (query) => {
      const result = classifyIntent(query)
      expect(result.uncertain).toBe(false)
      expect(result).not.toHaveProperty('uncertainty')
      expect(result.confidence).toBeGreaterThanOrEqual(UNCERTAIN_BELOW)
    },
  )

  it('is right more often when sure than when unsure, on the labelled set (the rules alone)', () => {
    const sure = REAL.filter((r) => !classifyIntent(r.query, RULES).uncertain)
    const unsure = REAL.filter((r) => classifyIntent(r.query, RULES).uncertain)
    expect(sure.length).toBeGreaterThan(unsure.length)
    expect(accuracy(sure, RULES).share).toBeGreaterThan(accuracy(unsure, RULES).share)
  })
})

describe('strategyFor', () => {
  it.each([
    ['factual', 'answer', null, [0.4, 0.1, 0.5]],
    ['status', 'deep', 'pm', [0.3, 0.5, 0.2]],
    ['comparison', 'deep', 'py', [0.4, 0.2, 0.4]],
    ['tutorial', 'answer', 'py', [0.4, 0.1, 0.5]],
    ['exploratory', 'deep', null, [0.3, 0.2, 0.5]],
    ['news', 'deep', 'pw', [0.3, 0.6, 0.1]],
    ['resource', 'fast', null, [0.5, 0.1, 0.4]],
  ] as const)('%s → %s, %s, %j', (intent, mode, freshness, [keyword, fresh, authority]) => {
    expect(strategyFor(intent)).toMatchObject({
      intent,
      mode,
      freshness,
      weights: { keyword, freshness: fresh, authority },
    })
  })

  it('returns a copy the caller may change without affecting later calls', () => {
    const row = strategyFor('news')
    row.weights.keyword = 1
    expect(strategyFor('news').weights.keyword).toBe(0.3)
  })
})
