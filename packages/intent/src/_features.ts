import { describeClass, wordClasses } from './_lexicon.js'

/**
 * The features the learned model reads from a query, shared by the classifier and the trainer
 * (`scripts/train.ts`) so both see the same thing. Keys are short strings; each is hashed into a bucket of the
 * weight table. Lexical features share a total of 1 (each weighs 1/√n, so a 60-word agent query does not shout
 * down a 3-word one); shape and word-class features weigh `SHAPE_WEIGHT` each. The rules' signals are not
 * features: the model is a second opinion that `_combine.ts` weighs against the rules (cross-validated, that beat
 * feeding it the rules' scores, again with the word classes).
 */

export interface Feature {
  key: string
  value: number
}

// Latin words and digits; a Han run is its own unit. Digits collapse to 0 so "python 3.12" and "python 3.13" agree.
const UNITS = /[a-z0-9_\u00c0-\u024f]+|\p{Script=Han}+/gu
const HAN_START = /^\p{Script=Han}/u
// People write Chinese with and without spaces between words ("怎么 安装 docker", "怎么安装docker"): read both alike.
const HAN_GAP = /(\p{Script=Han})\s+(?=\p{Script=Han})/gu
const DIGITS = /[0-9]+/g
// Long queries are read on their first part only: the features of a paragraph say no more than its opening.
const MAX_UNITS = 64
const LENGTH_BUCKETS = [1, 2, 4, 8, 16, 32] as const
// The weight of one shape or word-class feature; cross-validated on the train split (0.5 against 0.3, 1 and 2).
const SHAPE_WEIGHT = 0.5

/** Shapes of the raw query (before lower-casing): operators, pasted errors, questions, versions. */
const SHAPES: readonly [string, RegExp][] = [
  ['question-mark', /[?？]\s*$/u],
  ['quoted', /["“”「」]/u],
  ['site-operator', /\b(?:site|filetype|intitle|inurl):\S/u],
  ['minus-operator', /(?:^|\s)-[\p{L}"]/u],
  ['camel-word', /\b[a-z]+[A-Z][a-z]+[A-Za-z]*\b|\b[A-Z][a-z]+[A-Z][A-Za-z]*\b/u],
  ['caps-word', /\b[A-Z]{4,}\b/u],
  ['colon-message', /\S:\s+\S/u],
  ['parenthesis', /[()（）]/u],
  ['path-like', /[\w.]\/[\w.]|\.\/|\\\w/u],
  ['version', /\d+\.\d+/u],
  ['code-symbol', /[`{}[\]<>=;]|::|=>|->/u],
  // A pasted error: an exception or error name, an error code, a tool's error prefix, a quoted message.
  [
    'error-token',
    /\b[A-Za-z]*(?:Error|Exception|Warning)\b|\bE[A-Z]{3,}\b|\berror(?:\[|:| TS\d)|\bERR!|\berrno\b|\bpanic:|\bfatal:|\bexit (?:code|status) \d/u,
  ],
  // A yes/no question ("is …", "has …", "does …"): asks for a fact or a state, rarely for steps.
  ['yes-no-start', /^\s*(?:is|are|was|were|has|have|had|did|does|do|can|could|will|would|should|shall)\s/iu],
  ['wh-start', /^\s*(?:what|whats|what's|who|whom|whose|when|where|which|why|how)\b/iu],
  [
    'imperative-start',
    /^\s*(?:find|give|tell|show|list|compare|explain|summari[sz]e|research|look|check|help|get|collect)\b/iu,
  ],
  ['latin-only', /^[^\p{Script=Han}]*$/u],
]

/** The lexical, word-class and shape features of a normalised (lower-cased, NFKC) query and its raw text. */
export function extractFeatures(text: string, raw: string): Feature[] {
  const joined = text.replace(HAN_GAP, '$1')
  const lexical = lexicalKeys(joined)
  const weight = lexical.size === 0 ? 0 : 1 / Math.sqrt(lexical.size)
  const out: Feature[] = []
  for (const key of lexical) out.push({ key, value: weight })
  const shapes = new Set(SHAPES.filter(([, regex]) => regex.test(raw)).map(([name]) => name))
  for (const name of shapes) out.push({ key: `s:${name}`, value: SHAPE_WEIGHT })
  out.push({ key: `s:length-${lengthBucket(text)}`, value: SHAPE_WEIGHT })
  for (const key of classKeys(joined, shapes)) out.push({ key, value: SHAPE_WEIGHT })
  return out
}

/**
 * Word classes (`_lexicon.ts`) and two conjunctions a linear model cannot form by itself: a yes/no question with or
 * without a word of time ("is x stable yet" asks for a state, "is x statically typed" for a fact), and the same
 * for a Chinese question ending in 吗/没/么.
 */
function classKeys(text: string, shapes: ReadonlySet<string>): string[] {
  const units = (text.match(UNITS) ?? []).slice(0, MAX_UNITS)
  const words = units.filter((u) => !HAN_START.test(u))
  const han = units.filter((u) => HAN_START.test(u))
  const classes = wordClasses(words, han)
  const keys = classes.map((c) => `x:${c}`)
  const timed = classes.includes('temporal') ? 'temporal' : 'timeless'
  if (shapes.has('yes-no-start')) keys.push(`x:yes-no-${timed}`)
  if (/[吗么没][?？]?\s*$/u.test(text)) keys.push(`x:zh-question-${timed}`)
  return keys
}

function lengthBucket(text: string): number {
  const units = text.match(UNITS) ?? []
  let n = 0
  for (const unit of units) n += HAN_START.test(unit) ? Math.ceil(unit.length / 2) : 1
  return LENGTH_BUCKETS.find((b) => n <= b) ?? 64
}

/**
 * Word unigrams and bigrams, first and last word, character trigrams of Latin words (typos keep most of them),
 * and Han character unigrams, bigrams and trigrams (Chinese has no spaces; short n-grams stand in for words).
 */
function lexicalKeys(text: string): Set<string> {
  const keys = new Set<string>()
  const units = (text.match(UNITS) ?? []).slice(0, MAX_UNITS)
  let previous = '^'
  for (const unit of units) {
    if (HAN_START.test(unit)) {
      addHan(keys, unit)
      // Across a script change: the Latin word and the Han word next to it ("vue 路由", "报错 npm").
      keys.add(`b:${previous} 中`)
      keys.add(`b:${previous} ${unit.slice(0, 2)}`)
      previous = unit.slice(-2)
      continue
    }
    const word = unit.replace(DIGITS, '0')
    keys.add(`w:${word}`)
    keys.add(`b:${previous} ${word}`)
    if (word.length >= 3) addTrigrams(keys, word)
    previous = word
  }
  keys.add(`b:${previous} $`)
  return keys
}

function addHan(keys: Set<string>, run: string): void {
  for (let i = 0; i < run.length; i++) {
    keys.add(`h:${run[i]}`)
    if (i + 1 < run.length) keys.add(`h:${run.slice(i, i + 2)}`)
  }
  for (let i = 0; i + 3 <= run.length; i++) keys.add(`h:${run.slice(i, i + 3)}`)
  // Where a run starts and ends matters in Chinese: question particles and verbs of asking sit at the end (吗, 了吗,
  // 怎么办), verbs of asking and doing at the start (怎么, 如何, 帮我).
  keys.add(`h^:${run.slice(0, 2)}`)
  keys.add(`h$:${run.slice(-2)}`)
}

function addTrigrams(keys: Set<string>, word: string): void {
  const padded = `<${word}>`
  for (let i = 0; i + 3 <= padded.length; i++) keys.add(`c:${padded.slice(i, i + 3)}`)
}

/** A feature key as a person reads it in an explanation. */
export function describeFeature(key: string): string {
  const colon = key.indexOf(':')
  const kind = key.slice(0, colon)
  const body = key.slice(colon + 1)
  switch (kind) {
    case 'w':
      return `word "${body}"`
    case 'b':
      return `words "${body.replace('^ ', '(start) ').replace(' $', ' (end)')}"`
    case 'c':
      return `letters "${body}"`
    case 'h':
      return `"${body}"`
    case 'h$':
      return `ends with "${body}"`
    case 'h^':
      return `starts with "${body}"`
    case 's':
      return `shape ${body}`
    case 'x':
      return describeClass(body)
    default:
      return key
  }
}
