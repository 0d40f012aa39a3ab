import { INTENTS, type Intent } from '@search-layer/core'
import { describeFeature, type Feature } from './_features.js'
import weightsJson from './_model-weights.json'

/**
 * The learned intent model: a multinomial logistic regression over hashed features (`_features.ts`), trained by
 * `scripts/train.ts` on the train split of `data/queries.jsonl`. Weights ship as data: the buckets that kept a
 * weight (sorted, little-endian uint32, base64) and their int8 weights per intent, in `INTENTS` order.
 */
export interface ModelWeights {
  buckets: number
  classes: readonly string[]
  scale: number
  bias: readonly number[]
  /** Base64 in the shipped JSON; the bytes themselves where a bundle keeps them in a binary file (the CLI's). */
  keys: string | Uint8Array
  weights: string | Uint8Array
  /** The combination weights the trainer chose by cross-validation on the train split (see `_combine.ts`). */
  combine: CombineWeights
}

/** How sure the rules were, in the four bands the combination weighs differently (see `rulesBand` in `_combine.ts`). */
export const RULES_BANDS = ['none', 'weak', 'sure', 'certain'] as const
export type RulesBand = (typeof RULES_BANDS)[number]

/**
 * The combination rule's weights (`_combine.ts`): the log-odds bonus the rules' intent gets over the model's
 * probabilities, per band of rule confidence. The trainer picks them by cross-validation.
 */
export interface CombineWeights {
  ruleBonus: Record<RulesBand, number>
}

/** What the model weighed most for its answer: a feature as a person reads it and its share of the score. */
export interface ModelFeature {
  feature: string
  weight: number
}

export interface ModelVerdict {
  intent: Intent
  /** The model's probability for `intent` (softmax over the seven intents). */
  probability: number
  /** The model's probability for each intent, in `INTENTS` order. */
  probabilities: number[]
  /** The three features that pushed hardest towards an intent (the model's own, or the one the combination chose). */
  weighedFor: (intent: Intent) => ModelFeature[]
}

const TOP_FEATURES = 3

/** FNV-1a over UTF-16 units, the bucket hash of the trainer and the classifier. */
export function hashKey(key: string, buckets: number): number {
  let h = 0x811c9dc5
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h % buckets
}

interface LoadedModel {
  weights: ModelWeights
  keys: Uint32Array
  values: Int8Array
}

let loaded: LoadedModel | undefined

// Buffer decodes base64 natively (~0.1 ms for the table); a JavaScript loop over atob's string took ~30 ms cold.
// Bytes given as bytes are used as they are, copied only when a Uint32Array could not view them (unaligned).
function bytesOf(data: string | Uint8Array): Uint8Array {
  if (typeof data === 'string') return Buffer.from(data, 'base64')
  return data.byteOffset % 4 === 0 ? data : data.slice()
}

/** Decodes the shipped weights (on first use); a bad file fails loudly. */
export function loadModel(weights: ModelWeights = weightsJson as ModelWeights): LoadedModel {
  if (weights.classes.join() !== INTENTS.join())
    throw new Error('_model-weights.json: classes differ from INTENTS; retrain (scripts/train.ts)')
  const keyBytes = bytesOf(weights.keys)
  const keys = new Uint32Array(keyBytes.buffer, keyBytes.byteOffset, keyBytes.byteLength / 4)
  const valueBytes = bytesOf(weights.weights)
  const values = new Int8Array(valueBytes.buffer, valueBytes.byteOffset, valueBytes.byteLength)
  if (values.length !== keys.length * INTENTS.length) throw new Error('_model-weights.json: keys and weights differ')
  return { weights, keys, values }
}

function rowOf(model: LoadedModel, bucket: number): number {
  let lo = 0
  let hi = model.keys.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const key = model.keys[mid]!
    if (key === bucket) return mid * INTENTS.length
    if (key < bucket) lo = mid + 1
    else hi = mid - 1
  }
  return -1
}

/** The shipped model's combination weights. */
export function combineWeights(): CombineWeights {
  loaded ??= loadModel()
  return loaded.weights.combine
}

/** The model's intent, its probability and the features that weighed most for it. */
export function predict(features: readonly Feature[], model?: LoadedModel): ModelVerdict {
  loaded ??= loadModel()
  const m = model ?? loaded
  const n = INTENTS.length
  const logits = m.weights.bias.slice(0, n)
  const rows: { key: string; value: number; row: number }[] = []
  for (const f of features) {
    const row = rowOf(m, hashKey(f.key, m.weights.buckets))
    if (row < 0) continue
    rows.push({ key: f.key, value: f.value, row })
    for (let c = 0; c < n; c++) logits[c]! += f.value * m.values[row + c]! * m.weights.scale
  }
  let best = 0
  for (let c = 1; c < n; c++) if (logits[c]! > logits[best]!) best = c
  const probabilities = softmax(logits)
  return {
    intent: INTENTS[best]!,
    probability: probabilities[best]!,
    probabilities,
    weighedFor: (intent) => topFeatures(rows, m, INTENTS.indexOf(intent)),
  }
}

/** Probabilities from scores (log-odds), stable for large scores. */
export function softmax(scores: readonly number[]): number[] {
  const max = Math.max(...scores)
  const exp = scores.map((s) => Math.exp(s - max))
  const sum = exp.reduce((a, b) => a + b, 0)
  return exp.map((e) => e / sum)
}

function topFeatures(rows: { key: string; value: number; row: number }[], m: LoadedModel, c: number): ModelFeature[] {
  return rows
    .map((r) => ({ key: r.key, weight: r.value * m.values[r.row + c]! * m.weights.scale }))
    .filter((r) => r.weight > 0)
    .sort((a, b) => b.weight - a.weight)
    .slice(0, TOP_FEATURES)
    .map((r) => ({ feature: describeFeature(r.key), weight: Math.round(r.weight * 100) / 100 }))
}
