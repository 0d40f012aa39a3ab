import { keywordFromPrepared, prepareQueries, type TextFields } from './_text.js'

export type { TextFields }

/**
 * Share of the query's terms found in title + snippet, in [0,1]: whole words, case-insensitive, CJK segmented,
 * C#/C++/k8s/Go kept. With sub-queries: `(coverage(query) + max coverage over all queries) / 2`. Never throws.
 */
export function keywordScore(fields: TextFields, query: string, subQueries: readonly string[] = []): number {
  return keywordFromPrepared(prepareQueries(query, subQueries), fields ?? {})
}
