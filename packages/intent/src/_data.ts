import {
  type FreshnessWindow,
  FreshnessWindowSchema,
  INTENTS,
  type Intent,
  type Mode,
  ModeSchema,
} from '@search-layer/core'
import signalsJson from '../../../references/intent-signals.json'
import strategiesJson from '../../../references/intent-strategies.json'

export type Lang = 'en' | 'zh'

export interface StrategyRow {
  mode: Mode
  freshness: FreshnessWindow | null
  freshnessOptions: readonly FreshnessWindow[]
  weights: { keyword: number; freshness: number; authority: number }
}

/** A pattern is a regex source (weight 1) or a source with its own weight. */
type PatternEntry = string | { source: string; weight: number }

export interface SignalTable {
  blocked: Record<Lang, readonly string[]>
  /** Site and product names: resource signals that count only when nothing else in the query signals an intent. */
  sites: Record<Lang, Record<string, number>>
  intents: Record<
    Intent,
    { en: Record<string, number>; zh: Record<string, number>; patterns: Record<string, PatternEntry> }
  >
  timeHints: Record<FreshnessWindow, Record<Lang, readonly string[]>>
}

// The JSON files are data edited by hand; a bad edit must fail loudly at import (and in tests), never mid-query.
function checkStrategies(raw: Record<string, unknown>): Record<Intent, StrategyRow> {
  const out = {} as Record<Intent, StrategyRow>
  for (const intent of INTENTS) {
    const row = raw[intent] as StrategyRow | undefined
    if (!row) throw new Error(`intent-strategies.json: missing row for ${intent}`)
    ModeSchema.parse(row.mode)
    if (row.freshness !== null) FreshnessWindowSchema.parse(row.freshness)
    for (const w of row.freshnessOptions) FreshnessWindowSchema.parse(w)
    const { keyword, freshness, authority } = row.weights
    if (Math.abs(keyword + freshness + authority - 1) > 1e-9)
      throw new Error(`intent-strategies.json: weights of ${intent} do not sum to 1`)
    out[intent] = Object.freeze({
      mode: row.mode,
      freshness: row.freshness,
      freshnessOptions: Object.freeze([...row.freshnessOptions]),
      weights: Object.freeze({ ...row.weights }),
    })
  }
  return out
}

function checkWeight(term: string, weight: number): void {
  if (!(weight > 0 && weight <= 1)) throw new Error(`intent-signals.json: weight of "${term}" must be in (0, 1]`)
}

// What is left of a pattern once its escapes (`\p{L}`, `\S`, `\b`) are taken out: its literal text.
const ESCAPES = /\\[pP]\{[^}]*\}|\\./g

/**
 * Queries are lower-cased before matching (`normalize`), so patterns are compiled without the `i` flag (a
 * case-insensitive Unicode regex compiles about twice as slowly: ~1.6 ms of a one-shot search for five patterns);
 * an upper-case letter in one would never match.
 */
export function checkPattern(name: string, source: string): void {
  new RegExp(source, 'u')
  const literal = source.replace(ESCAPES, '')
  if (literal !== literal.toLowerCase())
    throw new Error(
      `intent-signals.json: pattern "${name}" has an upper-case letter; queries are lower-cased before matching, so write it in lower case`,
    )
}

function checkSignals(raw: SignalTable): SignalTable {
  if (!raw.sites?.en || !raw.sites.zh) throw new Error('intent-signals.json: missing "sites" (en and zh)')
  for (const [term, weight] of [...Object.entries(raw.sites.en), ...Object.entries(raw.sites.zh)])
    checkWeight(term, weight)
  for (const intent of INTENTS) {
    const entry = raw.intents[intent]
    if (!entry) throw new Error(`intent-signals.json: missing signals for ${intent}`)
    for (const [term, weight] of [...Object.entries(entry.en), ...Object.entries(entry.zh)]) checkWeight(term, weight)
    for (const [name, pattern] of Object.entries(entry.patterns)) {
      checkPattern(name, typeof pattern === 'string' ? pattern : pattern.source)
      if (typeof pattern !== 'string') checkWeight(`pattern ${name}`, pattern.weight)
    }
  }
  return raw
}

export const STRATEGIES: Readonly<Record<Intent, StrategyRow>> = checkStrategies(
  strategiesJson as Record<string, unknown>,
)
export const SIGNALS: SignalTable = checkSignals(signalsJson as unknown as SignalTable)
