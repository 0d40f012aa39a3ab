import { parseInput } from '@search-layer/core'
import { z } from 'zod'
import { foldNearDuplicates, type Folded } from './_fold.js'
import { type Candidate, rankCandidates } from './_rank.js'
import { searchTerms } from './_search-terms.js'
import { plainText } from './_text.js'
import { loadTokenCounter } from './_token-count.js'
import { type Passage, type PassageQuery, PassageQuerySchema, type PassageSource, type ReadPage } from './schema.js'
import { DEFAULT_SPLIT_OPTIONS, splitMarkdown } from './split.js'

/** Options of `findPassages`; every one has a default. */
export const FindPassagesOptionsSchema = z.object({
  /** Most tokens (o200k_base) of passage text returned, summed over the passages. */
  budgetTokens: z.number().int().min(1).max(100_000).default(2_000),
  /** Most passages returned. */
  maxPassages: z.number().int().min(1).max(200).default(20),
  /** Characters of each page's markdown read; the rest is ignored. */
  maxPageChars: z.number().int().min(1).max(2_000_000).default(DEFAULT_SPLIT_OPTIONS.maxChars),
  /** Characters read over all pages, in result order; a page past it is read only in part, or not at all. */
  maxTotalChars: z.number().int().min(1).max(10_000_000).default(600_000),
  /** Passage size: shorter neighbours under one heading are merged. */
  minWords: z.number().int().min(1).max(1_000).default(DEFAULT_SPLIT_OPTIONS.minWords),
  /** Passage size: longer blocks are cut at items, rows, lines, sentences. */
  maxWords: z.number().int().min(10).max(2_000).default(DEFAULT_SPLIT_OPTIONS.maxWords),
})
export type FindPassagesOptions = z.input<typeof FindPassagesOptionsSchema>

// Only the best this many matching passages are folded and counted: a 2,000-token budget holds
// about 20 passages, and folding may merge some of them.
const MAX_RANKED = 200

/**
 * The best evidence passages of the read pages for the query and its sub-queries, under a token
 * budget, ids `p1`, `p2`, … in rank order. Pure apart from loading the tokenizer once. Throws
 * `InputError` for malformed input or options; oversized page text is cut, never refused.
 */
export async function findPassages(input: PassageQuery, options: FindPassagesOptions = {}): Promise<Passage[]> {
  const { query, subQueries, pages } = parseInput(PassageQuerySchema, input, 'passage query')
  const opts = parseInput(FindPassagesOptionsSchema, options, 'passage options')
  const candidates = splitPages(pages, opts)
  const ranked = rankCandidates(candidates, query, subQueries).slice(0, MAX_RANKED)
  const groups = foldNearDuplicates(ranked)
  return selectUnderBudget(groups, opts.budgetTokens, opts.maxPassages)
}

/** Every page's passages, reading pages in result order until `maxTotalChars` is spent. */
function splitPages(pages: readonly ReadPage[], opts: z.output<typeof FindPassagesOptionsSchema>): Candidate[] {
  const candidates: Candidate[] = []
  let charsLeft = opts.maxTotalChars
  for (const page of [...pages].sort((a, b) => a.resultRank - b.resultRank)) {
    if (charsLeft <= 0) break
    const maxChars = Math.min(opts.maxPageChars, charsLeft)
    charsLeft -= Math.min(page.markdown.length, maxChars)
    const split = splitMarkdown(page.markdown, { minWords: opts.minWords, maxWords: opts.maxWords, maxChars })
    for (const passage of split) candidates.push({ page, passage, terms: searchTerms(plainText(passage.text)) })
  }
  return candidates
}

function sourceOf(c: Candidate): PassageSource {
  return {
    url: c.page.url,
    title: c.page.title,
    resultRank: c.page.resultRank,
    start: c.passage.start,
    end: c.passage.end,
  }
}

/** Greedy by rank: a passage that does not fit what is left of the budget is passed over for smaller ones. */
async function selectUnderBudget(
  groups: readonly Folded[],
  budgetTokens: number,
  maxPassages: number,
): Promise<Passage[]> {
  const countTokens = await loadTokenCounter()
  const passages: Passage[] = []
  let left = budgetTokens
  for (const { kept, folded } of groups) {
    if (passages.length >= maxPassages || left <= 0) break
    const tokens = countTokens(kept.passage.text, left)
    if (tokens === false) continue
    left -= tokens
    const sources = [kept, ...folded]
      .filter((c, i, all) => all.findIndex((o) => o.page.url === c.page.url) === i)
      .map(sourceOf)
    passages.push({
      id: `p${passages.length + 1}`,
      url: kept.page.url,
      title: kept.page.title,
      heading: kept.passage.heading,
      text: kept.passage.text,
      start: kept.passage.start,
      end: kept.passage.end,
      score: Math.round(kept.score * 1e4) / 1e4,
      resultRank: kept.page.resultRank,
      ...(sources.length > 1 ? { sources } : {}),
    })
  }
  return passages
}
