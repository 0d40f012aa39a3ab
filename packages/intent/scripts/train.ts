// Trains the learned intent model (src/_model-weights.json) on the train split of data/queries.jsonl:
// multinomial logistic regression over hashed features, AdaGrad with L2, a fixed seed, so the same data gives the
// same bytes. The holdout split is never read here. Run: pnpm --filter @search-layer/intent train
// Hand-written (~100 lines of maths) because no well-kept JavaScript library trains a sparse multinomial model:
// ml-logistic-regression is one-vs-rest over dense matrices, TensorFlow.js is a 100 MB dependency for a loop.
import { writeFileSync } from 'node:fs'
import { INTENTS, type Intent } from '@search-layer/core'
import { classifyIntent, UNCERTAIN_BELOW } from '../src/classify.js'
import { normalize } from '../src/_matcher.js'
import { type CombineWeights, hashKey, type ModelWeights } from '../src/_model.js'
import { combine, modelFeatures, rulesBand } from '../src/_combine.js'
import { RULES_BANDS, type RulesBand } from '../src/_model.js'
import { readDataset, readJsonl } from './dataset.mjs'

const BUCKETS = 1 << 18
const EPOCHS = 30
const LEARNING_RATE = 0.3
const SEED = 42
const FOLDS = 5
const L2_GRID = [1e-4, 3e-4]
// The log-odds bonus of the rules' answer, per band of rule confidence: 0 lets the model alone decide, 12 the rules.
const BONUS_GRID = Array.from({ length: 49 }, (_, i) => i / 4)
// A bucket keeps its weights when one of them is at least this large: the rest change no answer worth keeping.
const PRUNE_BELOW = 0.04
const K = INTENTS.length

interface Row {
  query: string
  family: string
  label: number
  x: Map<number, number>
  rules: { intent: Intent; confidence: number; uncertain: boolean; uncertainty?: string }
}

function prepare(query: string, intent: Intent, family: string): Row {
  const raw = query.slice(0, 4096)
  const input = normalize(raw)
  const rules = classifyIntent(query, { model: false })
  const x = new Map<number, number>()
  for (const f of modelFeatures(rules, raw, input.text)) {
    const bucket = hashKey(f.key, BUCKETS)
    x.set(bucket, (x.get(bucket) ?? 0) + f.value)
  }
  return { query, family, label: INTENTS.indexOf(intent), x, rules }
}

/** mulberry32: a small seeded generator, so the shuffle (and the weights) are the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface Model {
  w: Float64Array
  bias: Float64Array
}

function probabilities(model: Model, x: Map<number, number>): number[] {
  const logits = Array.from(model.bias)
  for (const [bucket, value] of x) for (let c = 0; c < K; c++) logits[c]! += value * model.w[bucket * K + c]!
  const max = Math.max(...logits)
  const exp = logits.map((l) => Math.exp(l - max))
  const sum = exp.reduce((a, b) => a + b, 0)
  return exp.map((e) => e / sum)
}

/**
 * AdaGrad over shuffled rows; the weights returned are the mean of the weights after each epoch of the second half
 * (Polyak averaging), so the answer depends little on the order of the rows: with the last epoch's weights alone,
 * adding or removing one row moved the holdout by about ±0.01.
 */
function train(rows: readonly Row[], l2: number): Model {
  const model: Model = { w: new Float64Array(BUCKETS * K), bias: new Float64Array(K) }
  const mean: Model = { w: new Float64Array(BUCKETS * K), bias: new Float64Array(K) }
  const averageFrom = Math.floor(EPOCHS / 2)
  const g2 = new Float64Array(BUCKETS * K)
  const b2 = new Float64Array(K)
  const next = random(SEED)
  const order = rows.map((_, i) => i)
  const step = (weights: Float64Array, acc: Float64Array, i: number, grad: number) => {
    acc[i]! += grad * grad
    weights[i]! -= (LEARNING_RATE * grad) / Math.sqrt(acc[i]! + 1e-8)
  }
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1))
      ;[order[i], order[j]] = [order[j]!, order[i]!]
    }
    for (const index of order) {
      const row = rows[index]!
      const p = probabilities(model, row.x)
      for (let c = 0; c < K; c++) {
        const error = p[c]! - (c === row.label ? 1 : 0)
        step(model.bias, b2, c, error)
        for (const [bucket, value] of row.x) {
          const at = bucket * K + c
          step(model.w, g2, at, error * value + l2 * model.w[at]!)
        }
      }
    }
    if (epoch < averageFrom) continue
    for (let i = 0; i < mean.w.length; i++) mean.w[i]! += model.w[i]! / (EPOCHS - averageFrom)
    for (let c = 0; c < K; c++) mean.bias[c]! += model.bias[c]! / (EPOCHS - averageFrom)
  }
  return mean
}

/** Zeroes the buckets whose largest weight is under PRUNE_BELOW, as `pack` drops them, so cross-validation sees the shipped model. */
function prune(model: Model): Model {
  for (let bucket = 0; bucket < BUCKETS; bucket++) {
    const row = model.w.subarray(bucket * K, bucket * K + K)
    if (Math.max(...Array.from(row, Math.abs)) < PRUNE_BELOW) row.fill(0)
  }
  return model
}

interface Scored {
  row: Row
  predicted: number
  p: number[]
}

function score(model: Model, rows: readonly Row[]): Scored[] {
  return rows.map((row) => {
    const p = probabilities(model, row.x)
    return { row, predicted: p.indexOf(Math.max(...p)), p }
  })
}

function correct(s: Scored, weights: CombineWeights): boolean {
  return combine(s.row.rules, s.p, weights, UNCERTAIN_BELOW).intent === INTENTS[s.row.label]
}

/**
 * The rules' bonus for each band of rule confidence: each out-of-fold row belongs to one band, so each band's bonus
 * is the grid value right most often on its rows (ties: the smaller bonus, i.e. the model).
 */
function fitBonuses(scored: readonly Scored[]): { weights: CombineWeights; accuracy: number } {
  const ruleBonus = {} as Record<RulesBand, number>
  let right = 0
  for (const band of RULES_BANDS) {
    const rows = scored.filter((s) => rulesBand(s.row.rules) === band)
    let best = { bonus: 0, right: -1 }
    for (const bonus of BONUS_GRID) {
      const weights = { ruleBonus: { none: bonus, weak: bonus, sure: bonus, certain: bonus } }
      const n = rows.filter((s) => correct(s, weights)).length
      if (n > best.right) best = { bonus, right: n }
    }
    ruleBonus[band] = best.bonus
    right += Math.max(0, best.right)
  }
  return { weights: { ruleBonus }, accuracy: right / scored.length }
}

/** Five folds of the train split by a hash of the query: each λ's out-of-fold predictions, then the best bonuses. */
function crossValidate(rows: readonly Row[]) {
  let best = {
    l2: L2_GRID[0]!,
    weights: { ruleBonus: { none: 0, weak: 0, sure: 0, certain: 0 } },
    accuracy: 0,
    modelAlone: 0,
    scored: [] as Scored[],
  }
  for (const l2 of L2_GRID) {
    const scored: Scored[] = []
    for (let fold = 0; fold < FOLDS; fold++) {
      const inFold = (r: Row) => hashKey(`fold:${r.query}`, FOLDS) === fold
      scored.push(
        ...score(
          prune(
            train(
              rows.filter((r) => !inFold(r)),
              l2,
            ),
          ),
          rows.filter(inFold),
        ),
      )
    }
    const modelAlone = scored.filter((s) => s.predicted === s.row.label).length / scored.length
    const fit = fitBonuses(scored)
    if (fit.accuracy > best.accuracy) best = { l2, ...fit, modelAlone, scored }
  }
  return best
}

/** The out-of-fold misses of the chosen combination, by family: where new labelled phrasings would help. */
function printMisses(scored: readonly Scored[], weights: CombineWeights): void {
  const misses = scored.filter((s) => !correct(s, weights))
  const byFamily = new Map<string, string[]>()
  for (const s of misses) {
    const got = combine(s.row.rules, s.p, weights, UNCERTAIN_BELOW).intent
    const line = `  ${s.row.query} → ${got}, expected ${INTENTS[s.row.label]} (rules ${s.row.rules.intent} ${s.row.rules.confidence})`
    byFamily.set(s.row.family, [...(byFamily.get(s.row.family) ?? []), line])
  }
  for (const [family, lines] of [...byFamily].sort((a, b) => b[1].length - a[1].length))
    console.log(`${family} (${lines.length})\n${lines.join('\n')}`)
}

/** Keeps the buckets with a weight worth keeping, as sorted keys and int8 weights (one scale for the table). */
function pack(model: Model, combineWeights: CombineWeights): ModelWeights & { keys: string; weights: string } {
  const kept: number[] = []
  let maxAbs = 0
  for (let bucket = 0; bucket < BUCKETS; bucket++) {
    const row = model.w.subarray(bucket * K, bucket * K + K)
    const largest = Math.max(...Array.from(row, Math.abs))
    if (largest < PRUNE_BELOW) continue
    kept.push(bucket)
    maxAbs = Math.max(maxAbs, largest)
  }
  const scale = maxAbs / 127
  const keys = new Uint32Array(kept)
  const weights = new Int8Array(kept.length * K)
  kept.forEach((bucket, i) => {
    for (let c = 0; c < K; c++) weights[i * K + c] = Math.round(model.w[bucket * K + c]! / scale)
  })
  return {
    buckets: BUCKETS,
    classes: [...INTENTS],
    scale,
    bias: Array.from(model.bias, (b) => Math.round(b * 1e4) / 1e4),
    keys: Buffer.from(keys.buffer).toString('base64'),
    weights: Buffer.from(weights.buffer).toString('base64'),
    combine: combineWeights,
  }
}

type Labelled = { query: string; intent: Intent; split?: string; family?: string }
const labelled: Labelled[] = [
  ...readDataset().filter((r) => r.split === 'train'),
  ...readJsonl<Labelled>('test/fixtures/real-queries.jsonl').filter((r) => r.split === 'tune'),
  // The spec's own phrasings (the original set): they define the table, so the model learns them too.
  ...readJsonl<Labelled>('test/fixtures/original-queries.jsonl'),
]
const rows = labelled.map((r) => prepare(r.query, r.intent, r.family ?? 'fixture'))
const best = crossValidate(rows)
if (process.argv.includes('--misses')) printMisses(best.scored, best.weights)
const weights = pack(train(rows, best.l2), best.weights)
const file = new URL('../src/_model-weights.json', import.meta.url)
writeFileSync(file, `${JSON.stringify(weights)}\n`)
const keptBuckets = Buffer.from(weights.keys, 'base64').length / 4
console.log(
  `trained on ${rows.length} rows; cross-validated: model alone ${best.modelAlone.toFixed(3)}, combined ${best.accuracy.toFixed(3)} (l2 ${best.l2}, rules' bonus ${JSON.stringify(best.weights.ruleBonus)}); kept ${keptBuckets} buckets`,
)
