// Tokenisation shared by keyword scoring. Matching is on whole tokens, so "rust" never matches "trust";
// CJK has no spaces, so CJK terms come from Intl.Segmenter and match as substrings of the text.

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/
const NON_ASCII = /[^\x00-\x7f]/
/** Technical names whose punctuation is part of the name; word segmentation would cut them to "c", "f", "net". */
const SYMBOL_TOKENS = /(?<![\p{L}\p{N}])(c\+\+|c#|f#|j#|\.net)(?![\p{L}\p{N}+#])/giu
/** Latin words, numbers and dotted or dashed compounds: node.js, gpt-4o, k8s, 1.22. */
const SYMBOL_TOKEN = /^(?:c\+\+|c#|f#|j#|\.net)$/
const ASCII_WORD = /[a-z0-9]+(?:[._'+-][a-z0-9]+)*/g

const STOPWORDS = new Set([
  ...'a an the of to in on for and or is are was were be been what how why when where which who whom do does did with vs versus about by from at as it its this that these those i my me we our you your can could should would will between than into over not no'.split(
    ' ',
  ),
  ...'的 了 是 和 与 及 在 吗 呢 啊 吧 什么 怎么 如何 怎样 哪些 哪个 为什么 一个 有 对 把 被 也 就 都 和'.split(' '),
])

let segmenter: Intl.Segmenter | undefined

function segment(text: string): string[] {
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' })
  const out: string[] = []
  for (const part of segmenter.segment(text)) if (part.isWordLike) out.push(part.segment)
  return out
}

/** Light plural folding, applied to both sides, so "tutorials" meets "tutorial" without a stemmer. */
function fold(token: string): string {
  return token.length > 3 && token.endsWith('s') && !token.endsWith('ss') && !NON_ASCII.test(token)
    ? token.slice(0, -1)
    : token
}

export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase()
}

/** Raw word tokens of normalised text, symbol names first. */
function rawTokens(text: string): string[] {
  const tokens: string[] = []
  const rest = text.replace(SYMBOL_TOKENS, (match) => {
    tokens.push(match)
    return ' '
  })
  if (!NON_ASCII.test(rest)) {
    for (const match of rest.matchAll(ASCII_WORD)) tokens.push(match[0])
    return tokens
  }
  // Segmenter splits unknown CJK words into single characters (编程 → 编, 程): rejoin such runs into one term.
  let run = ''
  for (const word of segment(rest)) {
    if (word.length === 1 && CJK.test(word)) {
      run += word
      continue
    }
    if (run !== '') tokens.push(run)
    run = ''
    if (CJK.test(word)) tokens.push(word)
    else for (const match of word.matchAll(ASCII_WORD)) tokens.push(match[0])
    if (!CJK.test(word) && !/^[a-z0-9._'+-]+$/.test(word)) tokens.push(word)
  }
  if (run !== '') tokens.push(run)
  return tokens
}

/** A query's distinct terms; stopwords go unless nothing else is left. */
export function queryTerms(query: string): string[] {
  const all = [...new Set(rawTokens(normalizeText(query)).map(fold))]
  const content = all.filter((term) => !STOPWORDS.has(term))
  return content.length > 0 ? content : all
}

export interface IndexedText {
  tokens: Set<string>
  text: string
}

/** Index title + snippet once; compounds also index their parts so "gpt 4o" finds "GPT-4o". */
export function indexText(text: string): IndexedText {
  const normalized = normalizeText(text)
  const tokens = new Set<string>()
  for (const token of rawTokens(normalized)) {
    tokens.add(fold(token))
    if (/[._'+-]/.test(token) && !SYMBOL_TOKEN.test(token)) {
      for (const part of token.split(/[._'+-]+/)) if (part !== '') tokens.add(fold(part))
    }
  }
  return { tokens, text: normalized }
}

/** Share of terms found in the indexed text: whole tokens for Latin script, substrings for CJK. */
export function coverage(terms: readonly string[], doc: IndexedText): number {
  if (terms.length === 0) return 0
  let found = 0
  for (const term of terms) {
    if (doc.tokens.has(term) || (CJK.test(term) && doc.text.includes(term))) found++
  }
  return found / terms.length
}
