import { hasHan, isChinese } from '@search-layer/core/text'
import { GLOSSARY, SYNONYMS } from './_data.js'

/** NFKC, control characters and runs of whitespace to single spaces, trimmed. */
export function clean(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\s\p{Cc}\p{Cf}]+/gu, ' ')
    .trim()
}

/** Case- and spacing-insensitive identity for de-duplication. */
export function dedupeKey(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim()
}

export interface Replacement {
  from: string
  to: string
}

/** Replaces technical abbreviations on token boundaries; a target already in the text is not added twice. */
export function applySynonyms(text: string): { text: string; applied: Replacement[] } {
  const applied: Replacement[] = []
  let out = text
  let lower = out.toLowerCase()
  for (const rule of SYNONYMS) {
    // Most queries hold none of the ~55 terms: a substring check spares compiling and running each rule's regex
    // (a cold process, such as one CLI search, compiles every regex it runs).
    if (!lower.includes(rule.needle)) continue
    rule.regex.lastIndex = 0
    if (!rule.regex.test(out)) continue
    if (lower.includes(rule.to.toLowerCase())) continue
    rule.regex.lastIndex = 0
    out = out.replace(rule.regex, (match) => {
      if (!applied.some((a) => a.from === match)) applied.push({ from: match, to: rule.to })
      return rule.to
    })
    lower = out.toLowerCase()
  }
  return { text: out, applied }
}

const CJK_PUNCTUATION = /[\u3000-\u303f\uff01-\uff0f\uff1a-\uff20？！，。、；：“”‘’（）《》【】]/u

/**
 * Translates Chinese segments with the curated glossary, longest term first. `complete` is false when any
 * Chinese character had no entry, in which case the text is not a usable English query.
 */
export function translateWithGlossary(text: string): { text: string; complete: boolean; applied: Replacement[] } {
  const applied: Replacement[] = []
  const front: string[] = []
  let body = ''
  let complete = true
  const chars = Array.from(text)
  for (let i = 0; i < chars.length; ) {
    const ch = chars[i]!
    if (!hasHan(ch)) {
      body += CJK_PUNCTUATION.test(ch) ? ' ' : ch
      i++
      continue
    }
    let matched = false
    for (let len = Math.min(GLOSSARY.maxTermLength, chars.length - i); len >= 1; len--) {
      const key = chars.slice(i, i + len).join('')
      const fronted = GLOSSARY.fronted.get(key)
      const term = GLOSSARY.terms.get(key)
      if (fronted !== undefined) {
        front.push(fronted)
        applied.push({ from: key, to: fronted })
      } else if (term !== undefined) {
        body += ` ${term} `
        applied.push({ from: key, to: term })
      } else if (GLOSSARY.dropped.has(key)) {
        body += ' '
      } else continue
      i += len
      matched = true
      break
    }
    if (!matched) {
      complete = false
      body += ch
      i++
    }
  }
  const joined = [...front, body].join(' ').replace(/\s+/g, ' ').trim()
  return { text: joined, complete, applied }
}

const EN_EDGE_WORDS = new Set([
  'the',
  'a',
  'an',
  'of',
  'for',
  'about',
  'on',
  'in',
  'to',
  'with',
  'is',
  'are',
  'was',
  'were',
  'what',
  'which',
  'do',
  'does',
  'i',
  'me',
  'my',
  'we',
  'you',
  'and',
  'or',
  'please',
  's',
  'into',
  'between',
  'at',
  'by',
  'from',
])
const ZH_EDGE =
  /^(?:的|了|吗|呢|吧|啊|呀|是|请问|一下|有|和|与|关于|用|对|在)+|(?:的|了|吗|呢|吧|啊|呀|是|请问|一下|有|和|与|关于|用|对|在)+$/gu
const EDGE_PUNCTUATION = /^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu

/** Trims punctuation, filler words and particles from both ends (never from the middle). */
export function trimEdges(text: string): string {
  let out = text
  for (let previous = ''; previous !== out; ) {
    previous = out
    out = out.replace(EDGE_PUNCTUATION, '').replace(ZH_EDGE, '').trim()
    const words = out.split(' ')
    while (words.length > 0 && EN_EDGE_WORDS.has(words[0]!.toLowerCase())) words.shift()
    while (words.length > 0 && EN_EDGE_WORDS.has(words[words.length - 1]!.toLowerCase())) words.pop()
    out = words.join(' ')
  }
  return out
}

/** Removes signal phrases (English on word boundaries, case-insensitively; Chinese as substrings). */
export function removeTerms(text: string, terms: readonly { term: string; lang?: 'en' | 'zh' }[]): string {
  let out = text
  for (const { term, lang } of [...terms].sort((a, b) => b.term.length - a.term.length)) {
    if (!term) continue
    if (lang === 'zh' || isChinese(term)) {
      out = out.split(term).join(' ')
      continue
    }
    const body = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+')
    out = out.replace(new RegExp(`(?<![\\p{Script=Latin}\\p{N}_'])${body}(?![\\p{Script=Latin}\\p{N}_])`, 'giu'), ' ')
  }
  return out.replace(/\s+/g, ' ').trim()
}
