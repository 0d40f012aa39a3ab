// Which words of a passage the query asked for, for <mark>. Pure, linear in the text: one pass of one regular
// expression built from the query's words (escaped), never from the page.

/** A piece of a passage: plain, or a word the query asked for. */
export interface Piece {
  text: string
  marked: boolean
}

const STOP = new Set(
  'a an and are as at be by for from how in is it of on or the to vs was what when where which who why with'.split(' '),
)
const HAN = /\p{Script=Han}/u
const MAX_TERMS = 24

/** The query's words worth marking: Latin words of 2+ letters but stop words, and Han runs as their 2-character pieces. */
export function queryTerms(query: string): string[] {
  const terms = new Set<string>()
  for (const word of query.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}+#._-]*/gu) ?? []) {
    if (HAN.test(word)) {
      const chars = Array.from(word.replace(/[^\p{Script=Han}]/gu, ''))
      if (chars.length === 1) terms.add(chars[0]!)
      for (let i = 0; i + 1 < chars.length; i++) terms.add(chars[i]! + chars[i + 1]!)
      const latin = word.replace(/\p{Script=Han}/gu, ' ').trim()
      for (const part of latin.split(/\s+/)) if (part.length >= 2 && !STOP.has(part)) terms.add(part)
    } else {
      const bare = word.replace(/[._-]+$/, '')
      if (bare.length >= 2 && !STOP.has(bare)) terms.add(bare)
    }
  }
  return [...terms].slice(0, MAX_TERMS)
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * The passage cut into plain and marked pieces: Latin query words match at word starts (so "runtime" marks
 * "runtimes" but not "overruntime"), case-insensitively; Han pieces match anywhere.
 */
export function markWords(text: string, query: string): Piece[] {
  const terms = queryTerms(query).sort((a, b) => b.length - a.length)
  if (terms.length === 0) return [{ text, marked: false }]
  const alternatives = terms.map((t) => (HAN.test(t) ? escapeRegExp(t) : `(?<![\\p{L}\\p{N}])${escapeRegExp(t)}`))
  const pattern = new RegExp(alternatives.join('|'), 'giu')
  const pieces: Piece[] = []
  let at = 0
  for (const m of text.matchAll(pattern)) {
    if (m.index > at) pieces.push({ text: text.slice(at, m.index), marked: false })
    pieces.push({ text: m[0], marked: true })
    at = m.index + m[0].length
  }
  if (at < text.length) pieces.push({ text: text.slice(at), marked: false })
  return pieces
}
