// Text helpers shared by clustering, conflict detection and rendering. Everything here is pure and deterministic.

import { ENGLISH_STOP_WORDS, HAN_CLASS } from '@search-layer/core/text'

const HAN_G = new RegExp(`[${HAN_CLASS}]`, 'gu')
const HAN_RUN = new RegExp(`[${HAN_CLASS}]+`, 'gu')
// Latin/number words; keeps `node.js`, `c++`, `c#`, `io_uring`, `gpt-5` whole but not a trailing dot.
const WORD = /[\p{L}\p{N}][\p{L}\p{N}+#._-]*[\p{L}\p{N}+#]|[\p{L}\p{N}]/gu

/**
 * Core's query stop words plus what result prose and URLs add without naming a topic (`com`, `html`, `page`,
 * `latest`, `version`, `official`…): cluster labels come from titles and snippets, which a query never is.
 */
export const EN_STOPWORDS: ReadonlySet<string> = new Set([
  ...ENGLISH_STOP_WORDS,
  ...(
    'above after again against all also am any because before being below both but doing done down during each few ' +
    'further get gets got had has have having he her here hers him his if itself just let lets like made make makes ' +
    'many may might more most much must new nor now off once one only other ours out own per same she so some such ' +
    'their theirs them then there they through too under until up upon us use used uses using very via while within ' +
    'without yours com www http https html htm org net io amp nbsp page pages says said say support supports ' +
    'supported reach reached reaches hit hits cost costs around nearly almost roughly approximately latest current ' +
    'currently stable newest version versions release released releases started learn read see guide introduction ' +
    'overview article post blog home official'
  ).split(' '),
])

// Single Han characters that glue words together; a bigram across them is noise. Not core's CHINESE_STOP_WORDS:
// those are whole words as a segmenter cuts a query, these are the characters a bigram must not span.
export const HAN_STOP = new Set('的了是在和与及或把被对也就都而这那吗呢啊之于其为将已从向以等'.split(''))

/** Number of Han characters. */
export function hanCount(text: string): number {
  return text.match(HAN_G)?.length ?? 0
}

/** Collapses whitespace and strips control characters. */
export function flatten(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f\u200b-\u200f\u2028\u2029\ufeff]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

/** Cuts to at most `max` characters (code points), on a word boundary when one is near, ending in `…`. */
export function clip(text: string, max: number): string {
  const chars = Array.from(text)
  if (chars.length <= max) return text
  if (max <= 1) return max === 1 ? '…' : ''
  let cut = chars.slice(0, max - 1).join('')
  const space = cut.lastIndexOf(' ')
  // Only back off to a space when it costs little; Han text has no spaces and cuts anywhere.
  if (space > cut.length * 0.7) cut = cut.slice(0, space)
  return `${cut.replace(/[\s,;:，、;:]+$/u, '')}…`
}

/** Length in code points (what a reader counts; surrogate pairs count once). */
export function charLength(text: string): number {
  let n = 0
  for (const _ of text) n++
  return n
}

/** The first sentence of a text (English or Chinese punctuation). */
export function firstSentence(text: string): string {
  const flat = flatten(text)
  const match = /^.*?(?:[.!?](?=\s|$)|[。!?])/u.exec(flat)
  return (match ? match[0] : flat).trim()
}

/** Splits text into sentences (English or Chinese punctuation). */
export function sentences(text: string): string[] {
  return flatten(text)
    .split(/(?<=[.!?])\s+|(?<=[。!?;;])/u)
    .map((s) => s.trim())
    .filter(Boolean)
}

/** A term of a text: its normalised key and the form it was first written in. */
export interface Term {
  key: string
  display: string
}

function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ies')) return `${word.slice(0, -3)}y`
  if (word.length > 4 && word.endsWith('s') && !/(ss|us|is|os)$/.test(word)) return word.slice(0, -1)
  return word
}

/**
 * Salient terms of a text: lowercased, lightly stemmed Latin words without stopwords or bare numbers, and
 * Han bigrams (Chinese has no spaces, bigrams cluster well without a dictionary and stay deterministic).
 */
export function terms(text: string): Term[] {
  const out: Term[] = []
  const flat = flatten(text)
  for (const m of flat.replace(HAN_RUN, ' ').matchAll(WORD)) {
    const raw = m[0].replace(/[._-]+$/, '')
    const lower = raw.toLowerCase()
    if (lower.length < 2 || EN_STOPWORDS.has(lower) || /^[\d.,_-]+$/.test(lower)) continue
    if (lower.length < 3 && !/[+#\d]/.test(lower)) continue
    out.push({ key: stem(lower), display: raw })
  }
  for (const m of flat.matchAll(HAN_RUN)) {
    let segment = ''
    for (const ch of `${m[0]}的`) {
      if (HAN_STOP.has(ch)) {
        const chars = Array.from(segment)
        for (let i = 0; i + 1 < chars.length; i++) {
          const bigram = chars[i]! + chars[i + 1]!
          out.push({ key: bigram, display: bigram })
        }
        segment = ''
      } else segment += ch
    }
  }
  return out
}

/** Distinct term keys of a text. */
export function termKeys(text: string): Set<string> {
  return new Set(terms(text).map((t) => t.key))
}

const SECOND_LEVEL = new Set(['co', 'com', 'org', 'net', 'gov', 'edu', 'ac'])

/** The site a URL belongs to (`docs.rs`, `rust-lang.org`, `bbc.co.uk`), for counting independent sources. */
export function siteOf(url: string): string {
  let host: string
  try {
    host = new URL(url).hostname.toLowerCase()
  } catch {
    return url.toLowerCase()
  }
  const labels = host.replace(/^www\./, '').split('.')
  if (labels.length <= 2 || /^\d+$/.test(labels[labels.length - 1]!)) return labels.join('.')
  const take = SECOND_LEVEL.has(labels[labels.length - 2]!) && labels[labels.length - 1]!.length === 2 ? 3 : 2
  return labels.slice(-take).join('.')
}

/** The host a reader recognises (`blog.rust-lang.org`), `www.` dropped. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '')
  } catch {
    return url
  }
}
