// BM25 over the passages of all read pages (MiniSearch: BM25+ with field boosts), then the page's
// place in the search as a prior. How the two combine, and why, is in the README ("Ranking").
import MiniSearch from 'minisearch'
import { searchTerms } from './_search-terms.js'
import { isCjkCodePoint } from './_text.js'
import type { ReadPage } from './schema.js'
import type { SplitPassage } from './split.js'

/** A passage of one page, with the search terms of its plain text (found once, for ranking and folding). */
export interface Candidate {
  page: ReadPage
  passage: SplitPassage
  terms: string[]
}

export interface Ranked extends Candidate {
  /** Combined score in [0, 1]. */
  score: number
}

// A heading word says what a whole section is about, so it counts more than a body word; the title
// is the same for every passage of a page, so it only separates pages.
const FIELD_BOOST = { title: 0.5, heading: 1.5, body: 1 }
// A sub-query is a rewording of the question: a passage that only it matches ranks a little lower.
const SUB_QUERY_WEIGHT = 0.8
// Share of the score that comes from the page's place in the search: enough to break near-ties in
// favour of the better result, never enough to lift a passage that does not match over one that does.
const PRIOR_WEIGHT = 0.25
// Prefix matching stands in for stemming of words the stemmer does not join (`deploy` → `deployment`).
const MIN_PREFIX_TERM = 5

// NOTE(minisearch): its radix tree finds a node's child by scanning every child. Words of alphabets give a node at
// most a few dozen children, but a Chinese or Japanese page's terms are characters and pairs of characters: the
// root had ~700 children for one Chinese page among five, and indexing five pages took ~14 ms instead of ~3. A CJK
// term is indexed (and searched) as a mark and six hex digits a code point, so no node has more than 16 children.
// The mapping is one to one and the mark is no letter or digit, so every score stays the same.
const CJK_TERM_MARK = '~'

/** The form a term is indexed and searched in: a CJK term in hex, any other as it is. */
export function indexTerm(term: string): string {
  // Every CJK code point is at or above U+3005; most terms are ASCII.
  if (term.charCodeAt(0) < 0x3000 || !isCjkCodePoint(term.codePointAt(0)!)) return term
  let hex = CJK_TERM_MARK
  for (const char of term) hex += char.codePointAt(0)!.toString(16).padStart(6, '0')
  return hex
}

/** How much the search trusted the page, in [0, 1]: half its score relative to the best page, half 1/rank. */
function pagePrior(page: ReadPage, maxResultScore: number): number {
  const relative = maxResultScore > 0 ? page.resultScore / maxResultScore : 0
  return 0.5 * relative + 0.5 / page.resultRank
}

/**
 * Candidates that match the query or a sub-query, best first. `lexical` is each query's BM25 score
 * divided by that query's best (so queries of different lengths weigh alike), the best over the
 * queries; `score = lexical × (1 − w + w × prior)`, `w = PRIOR_WEIGHT`.
 */
export function rankCandidates(
  candidates: readonly Candidate[],
  query: string,
  subQueries: readonly string[],
): Ranked[] {
  // Documents arrive as terms joined by spaces (terms hold none), so each text is tokenised once:
  // a page's title once for all its passages, a body once for ranking and folding.
  const joined = new Map<string, string>()
  const joinedTerms = (text: string) => {
    let value = joined.get(text)
    if (value === undefined) {
      value = searchTerms(text).join(' ')
      joined.set(text, value)
    }
    return value
  }
  const index = new MiniSearch<{ id: number; title: string; heading: string; body: string }>({
    fields: ['title', 'heading', 'body'],
    tokenize: (text) => (text === '' ? [] : text.split(' ')),
    processTerm: indexTerm,
    searchOptions: {
      tokenize: searchTerms,
      boost: FIELD_BOOST,
      combineWith: 'OR',
      prefix: (term) => term.length >= MIN_PREFIX_TERM && /^[a-z]/.test(term),
    },
  })
  index.addAll(
    candidates.map((c, id) => ({
      id,
      title: joinedTerms(c.page.title),
      heading: joinedTerms(c.passage.heading),
      body: c.terms.join(' '),
    })),
  )
  const lexical = new Float64Array(candidates.length)
  const queries: [string, number][] = [[query, 1], ...subQueries.map((q): [string, number] => [q, SUB_QUERY_WEIGHT])]
  for (const [text, weight] of queries) {
    const hits = index.search(text)
    const best = hits[0]?.score ?? 0
    if (best <= 0) continue
    for (const hit of hits) {
      const id = hit.id as number
      lexical[id] = Math.max(lexical[id]!, (weight * hit.score) / best)
    }
  }
  const maxResultScore = Math.max(0, ...candidates.map((c) => c.page.resultScore))
  const ranked: Ranked[] = []
  candidates.forEach((c, id) => {
    if (lexical[id]! <= 0) return
    const prior = pagePrior(c.page, maxResultScore)
    ranked.push({ ...c, score: lexical[id]! * (1 - PRIOR_WEIGHT + PRIOR_WEIGHT * prior) })
  })
  return ranked.sort(
    (a, b) => b.score - a.score || a.page.resultRank - b.page.resultRank || a.passage.start - b.passage.start,
  )
}
