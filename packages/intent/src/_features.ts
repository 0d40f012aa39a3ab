/**
 * The features the learned model reads from a query, shared by the classifier and the trainer
 * (`scripts/train.ts`) so both see the same thing. Keys are short strings; each is hashed into a bucket of the
 * weight table. Lexical features share a total of 1 (each weighs 1/√n, so a 60-word agent query does not shout
 * down a 3-word one); shape features weigh 1. The rules' signals are not features: the model is a second opinion
 * that `_combine.ts` weighs against the rules (cross-validated, that beat feeding it the rules' scores).
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
]

/** The lexical and shape features of a normalised (lower-cased, NFKC) query and its raw text. */
export function extractFeatures(text: string, raw: string): Feature[] {
  const lexical = lexicalKeys(text.replace(HAN_GAP, '$1'))
  const weight = lexical.size === 0 ? 0 : 1 / Math.sqrt(lexical.size)
  const out: Feature[] = []
  for (const key of lexical) out.push({ key, value: weight })
  for (const [name, regex] of SHAPES) if (regex.test(raw)) out.push({ key: `s:${name}`, value: 1 })
  out.push({ key: `s:length-${lengthBucket(text)}`, value: 1 })
  return out
}

function lengthBucket(text: string): number {
  const units = text.match(UNITS) ?? []
  let n = 0
  for (const unit of units) n += HAN_START.test(unit) ? Math.ceil(unit.length / 2) : 1
  return LENGTH_BUCKETS.find((b) => n <= b) ?? 64
}

/**
 * Word unigrams and bigrams, first and last word, character trigrams of Latin words (typos keep most of them),
 * and Han character unigrams and bigrams (Chinese has no spaces; a bigram is the usual stand-in for a word).
 */
function lexicalKeys(text: string): Set<string> {
  const keys = new Set<string>()
  const units = (text.match(UNITS) ?? []).slice(0, MAX_UNITS)
  let previous = '^'
  for (const unit of units) {
    if (HAN_START.test(unit)) {
      addHan(keys, unit)
      keys.add(`b:${previous} 中`)
      previous = '中'
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
  // Where a run ends matters in Chinese: question particles and verbs of asking sit there (吗, 了吗, 怎么办).
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
    case 's':
      return `shape ${body}`
    default:
      return key
  }
}
