import { INTENTS, type Intent } from '@search-layer/core'
import { describe, expect, it } from 'vitest'
import { HOLDOUT_PERCENT, type LabelledRow, readDataset, readJsonl, splitOf } from '../scripts/dataset.mjs'
import { combine, rulesBand } from './_combine.js'
import { extractFeatures } from './_features.js'
import { loadModel, type ModelWeights, predict } from './_model.js'
import weights from './_model-weights.json'
import { classifyIntent, strategyFor } from './index.js'

const ROWS = readDataset()
const HOLDOUT = ROWS.filter((r) => r.split === 'holdout')
const BLIND_SETS = ['test/fixtures/blind-e.jsonl']

function accuracy(
  rows: readonly { query: string; intent: Intent }[],
  model = true,
): { share: number; misses: string[] } {
  const misses = rows
    .map((r) => ({ r, got: classifyIntent(r.query, { model }).intent }))
    .filter(({ r, got }) => got !== r.intent)
    .map(({ r, got }) => `${r.query} → ${got}, expected ${r.intent}`)
  return { share: 1 - misses.length / rows.length, misses }
}

describe('the labelled phrasing set (data/queries.jsonl)', () => {
  it('has ≥ 1,500 rows, English and Chinese about evenly, every intent, a hashed holdout near 25 %', () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(1500)
    const zh = ROWS.filter((r) => r.lang === 'zh').length / ROWS.length
    expect(zh).toBeGreaterThan(0.4)
    expect(zh).toBeLessThan(0.6)
    for (const intent of INTENTS) expect(ROWS.filter((r) => r.intent === intent).length).toBeGreaterThanOrEqual(180)
    expect(HOLDOUT.length / ROWS.length).toBeCloseTo(HOLDOUT_PERCENT / 100, 1)
    for (const r of ROWS) expect(r.lang).toBe(/\p{Script=Han}/u.test(r.query) ? 'zh' : 'en')
  })

  it('holds none of the issue’s example queries, which stand in for the hidden set', () => {
    const key = (q: string) => q.toLowerCase().replace(/\s+/g, ' ').trim()
    const labelled = new Set(ROWS.map((r) => key(r.query)))
    const examples = readJsonl<LabelledRow>('test/fixtures/issue-examples.jsonl')
    expect(examples.length).toBe(11)
    for (const r of examples) expect(labelled.has(key(r.query)), r.query).toBe(false)
  })

  it.each(BLIND_SETS)('holds none of the blind check set %s', (file) => {
    const key = (q: string) => q.toLowerCase().replace(/\s+/g, ' ').trim()
    const labelled = new Set(ROWS.map((r) => key(r.query)))
    for (const r of readJsonl<LabelledRow>(file)) expect(labelled.has(key(r.query)), r.query).toBe(false)
  })

  it('puts a query in the split its text hashes to, whatever its case or spacing', () => {
    expect(splitOf('Capital of  Australia')).toBe(splitOf('capital of australia'))
    expect(new Set(ROWS.map((r) => r.query.toLowerCase())).size).toBe(ROWS.length)
  })
})

describe('rules + learned model', () => {
  it('classifies the holdout with accuracy ≥ 0.92, and better than the rules alone', () => {
    const combined = accuracy(HOLDOUT)
    expect(combined.share, combined.misses.join('\n')).toBeGreaterThanOrEqual(0.92)
    expect(combined.share).toBeGreaterThan(accuracy(HOLDOUT, false).share + 0.05)
  })

  it.each(['en', 'zh'] as const)('classifies the %s holdout with accuracy ≥ 0.9', (lang) => {
    const { share, misses } = accuracy(HOLDOUT.filter((r) => r.lang === lang))
    expect(share, misses.join('\n')).toBeGreaterThanOrEqual(0.9)
  })

  it('keeps the hard set (test/fixtures/real-queries.jsonl) at ≥ 0.97 on each split', () => {
    const hard = readJsonl<LabelledRow & { split: 'tune' | 'holdout' }>('test/fixtures/real-queries.jsonl')
    for (const split of ['tune', 'holdout']) {
      const { share, misses } = accuracy(hard.filter((r) => r.split === split))
      expect(share, misses.join('\n')).toBeGreaterThanOrEqual(0.97)
    }
  })

  // Written blind (by people who saw neither the data, the code nor the model's answers) and never trained on; the
  // floor sits below today's 0.955 so that a retrained model that loses ground on unseen phrasing fails here.
  it.each(BLIND_SETS)('classifies the blind check set %s with accuracy ≥ 0.94', (file) => {
    const { share, misses } = accuracy(readJsonl<LabelledRow>(file))
    expect(share, misses.join('\n')).toBeGreaterThanOrEqual(0.94)
  })

  // The issue's own examples stand in for the hidden set: a check set that nothing trains on.
  it.each(readJsonl<LabelledRow>('test/fixtures/issue-examples.jsonl').map((r) => [r.query, r.intent] as const))(
    'the issue’s example %s → %s, with the strategy of that intent',
    (query, intent) => {
      const result = classifyIntent(query)
      expect(result.intent).toBe(intent)
      expect(result.mode).toBe(strategyFor(intent).mode)
      expect(result.weights).toEqual(strategyFor(intent).weights)
    },
  )

  it('says what the model weighed: its intent, probability, whether it decided and its top features', () => {
    const result = classifyIntent('where are we on python nogil')
    expect(result.model).toMatchObject({ intent: 'status', decided: expect.any(Boolean) })
    expect(result.model!.probability).toBeGreaterThan(0.5)
    expect(result.model!.features.length).toBeGreaterThan(0)
    for (const f of result.model!.features) expect(f.weight).toBeGreaterThan(0)
  })

  it('gives an intent the model changed the mode, freshness and weights of that intent', () => {
    const changed = HOLDOUT.filter((r) => {
      const c = classifyIntent(r.query)
      return c.model?.decided && c.intent !== classifyIntent(r.query, { model: false }).intent
    })
    expect(changed.length).toBeGreaterThan(10)
    for (const r of changed) {
      const c = classifyIntent(r.query)
      const strategy = strategyFor(c.intent)
      expect(c.mode).toBe(strategy.mode)
      expect(c.weights).toEqual(strategy.weights)
      if (strategy.freshnessOptions.length <= 1) expect(c.freshness).toBe(strategy.freshness)
      else expect(strategy.freshnessOptions).toContain(c.freshness)
    }
  })

  it('is left out with { model: false }: the rules alone, no model field', () => {
    expect(classifyIntent('capital of australia', { model: false }).model).toBeUndefined()
  })
})

describe('combine', () => {
  const weights = { ruleBonus: { none: 0.5, weak: 1, sure: 2, certain: 3 } }
  const sure = { intent: 'status' as const, confidence: 0.9, uncertain: false }
  const unsure = { intent: 'exploratory' as const, confidence: 0.3, uncertain: true, uncertainty: 'no-signal' }
  /** Probabilities in INTENTS order with `p` on `intent` and the rest shared evenly. */
  const probabilities = (intent: Intent, p: number) => INTENTS.map((i) => (i === intent ? p : (1 - p) / 6))

  it('puts the rules in a band by their confidence', () => {
    expect(rulesBand(unsure)).toBe('none')
    expect(rulesBand({ ...unsure, uncertainty: 'weak-signal', confidence: 0.5 })).toBe('weak')
    expect(rulesBand({ ...sure, confidence: 0.77 })).toBe('sure')
    expect(rulesBand(sure)).toBe('certain')
  })

  it('keeps certain rules unless the model is more than e^bonus times surer of another intent', () => {
    // status gets (1 - p) / 6 from the model; factual wins only when p / ((1 - p) / 6) > e^3 ≈ 20.1, i.e. p > 0.77.
    expect(combine(sure, probabilities('factual', 0.75), weights, 0.65)).toEqual({
      intent: 'status',
      confidence: 0.9,
      decided: false,
    })
    const overruled = combine(sure, probabilities('factual', 0.8), weights, 0.65)
    expect(overruled).toMatchObject({ intent: 'factual', decided: true })
    // 0.8 against status's 0.033 · e^3 and five others' 0.033: rules and model disagree, the result says uncertain.
    expect(overruled.confidence).toBeCloseTo(0.49, 2)
    expect(combine(sure, probabilities('status', 0.99), weights, 0.65).decided).toBe(false)
  })

  it('lets the model answer for unsure rules, with the combined probability as confidence', () => {
    // The model barely prefers another intent: the rules' default stands, as unsure as they gave it.
    expect(combine(unsure, probabilities('tutorial', 0.15), weights, 0.65)).toEqual({
      intent: 'exploratory',
      confidence: 0.3,
      decided: false,
    })
    // The model agrees with the default and makes it sure.
    const agreed = combine(unsure, probabilities('exploratory', 0.9), weights, 0.65)
    expect(agreed).toMatchObject({ intent: 'exploratory', decided: true })
    expect(agreed.confidence).toBeGreaterThan(0.9)
    const answered = combine(unsure, probabilities('tutorial', 0.6), weights, 0.65)
    expect(answered).toMatchObject({ intent: 'tutorial', decided: true })
    expect(answered.confidence).toBeGreaterThan(0.4)
    expect(answered.confidence).toBeLessThan(0.6)
  })
})

describe('the model’s features', () => {
  const keys = (q: string) => extractFeatures(q.toLowerCase(), q).map((f) => f.key)

  it('tells a yes/no question about now from one about a lasting fact', () => {
    expect(keys('is deno stable yet')).toContain('x:yes-no-temporal')
    expect(keys('is go statically typed')).toContain('x:yes-no-timeless')
    expect(keys('rust 现在 支持 async drop 了 吗')).toContain('x:zh-question-temporal')
    expect(keys('java 有 指针 吗')).toContain('x:zh-question-timeless')
  })

  it('reads a pasted error, an action verb first, an attribute, an artefact and an event', () => {
    expect(keys('ModuleNotFoundError: No module named x')).toContain('s:error-token')
    expect(keys('npm ERR! code ERESOLVE')).toContain('s:error-token')
    expect(keys('how to center a div')).not.toContain('s:error-token')
    expect(keys('extend lvm volume online')).toContain('x:action-first')
    expect(keys('mysql 导出 数据库')).toContain('x:action')
    expect(keys('台积电 董事长')).toContain('x:attribute')
    expect(keys('headquarters of arm holdings')).toContain('x:attribute')
    expect(keys('ubuntu server iso')).toContain('x:artefact')
    expect(keys('postgres 安装包')).toContain('x:artefact')
    expect(keys('英特尔 裁员')).toContain('x:event')
  })

  it('explains a decided answer by features that pushed towards that answer', () => {
    const decided = HOLDOUT.map((r) => classifyIntent(r.query)).filter((c) => c.model?.decided)
    expect(decided.length).toBeGreaterThan(50)
    for (const c of decided) for (const f of c.model!.features) expect(f.weight).toBeGreaterThan(0)
  })
})

describe('the shipped model', () => {
  it('loads, and refuses weights whose classes are not the seven intents in order', () => {
    expect(() => loadModel(weights as ModelWeights)).not.toThrow()
    expect(() => loadModel({ ...(weights as ModelWeights), classes: [...INTENTS].reverse() })).toThrow(/classes/)
  })

  it('takes its tables as bytes too (the CLI bundle keeps them in a binary file), aligned or not', () => {
    const shipped = weights as ModelWeights & { keys: string; weights: string }
    const features = extractFeatures('bun vs deno which is faster', 'bun vs deno which is faster')
    const expected = predict(features, loadModel(shipped)).probabilities
    const keys = Buffer.from(shipped.keys, 'base64')
    const values = Buffer.from(shipped.weights, 'base64')
    // One byte in: a Uint32Array cannot view keys there, so they are copied.
    const unaligned = new Uint8Array(keys.length + 1)
    unaligned.set(keys, 1)
    for (const asBytes of [new Uint8Array(keys), unaligned.subarray(1)])
      expect(predict(features, loadModel({ ...shipped, keys: asBytes, weights: values })).probabilities).toEqual(
        expected,
      )
  })

  it('reads Chinese with or without spaces between words alike', () => {
    const spaced = predict(extractFeatures('python 怎么 读取 json 文件', 'python 怎么 读取 json 文件'))
    const joined = predict(extractFeatures('python 怎么读取json文件', 'python 怎么读取json文件'))
    expect(spaced.intent).toBe(joined.intent)
  })
})
