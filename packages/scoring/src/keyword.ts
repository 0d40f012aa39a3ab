import { coverage, indexText, queryTerms } from './_text.js'
import { round4 } from './_math.js'

/** Title and snippet of a result; either may be missing. */
export interface TextFields {
  title?: string | null
  snippet?: string | null
}

/** Pre-split query terms, so scoring many results tokenises each query once. */
export interface PreparedQueries {
  main: string[]
  subs: string[][]
}

export function prepareQueries(query: string, subQueries: readonly string[] = []): PreparedQueries {
  const main = queryTerms(typeof query === 'string' ? query : '')
  const subs = subQueries
    .filter((q): q is string => typeof q === 'string' && q.trim() !== '' && q !== query)
    .map(queryTerms)
    .filter((terms) => terms.length > 0)
  return { main, subs }
}

export function documentText(fields: TextFields): string {
  const title = typeof fields.title === 'string' ? fields.title : ''
  const snippet = typeof fields.snippet === 'string' ? fields.snippet : ''
  return `${title}\n${snippet}`
}

export function keywordFromPrepared(prepared: PreparedQueries, fields: TextFields): number {
  const doc = indexText(documentText(fields))
  const main = coverage(prepared.main, doc)
  if (prepared.subs.length === 0) return round4(main)
  // Half for the user's own query, half for the best of all queries: a result that fully answers one
  // sub-query still counts, but never outranks one that covers what the user actually typed.
  let best = main
  for (const terms of prepared.subs) best = Math.max(best, coverage(terms, doc))
  return round4((main + best) / 2)
}

/**
 * Share of the query's terms found in title + snippet, in [0,1]: whole words, case-insensitive, CJK segmented,
 * C#/C++/k8s/Go kept. With sub-queries: `(coverage(query) + max coverage over all queries) / 2`. Never throws.
 */
export function keywordScore(fields: TextFields, query: string, subQueries: readonly string[] = []): number {
  return keywordFromPrepared(prepareQueries(query, subQueries), fields ?? {})
}
