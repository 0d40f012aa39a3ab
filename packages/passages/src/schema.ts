import { z } from 'zod'

const Offset = z.number().int().nonnegative()
const ResultRank = z.number().int().positive()

/** A page a folded passage was also found on, with its offsets into that page's markdown. */
export const PassageSourceSchema = z.object({
  url: z.string(),
  title: z.string(),
  resultRank: ResultRank,
  start: Offset,
  end: Offset,
})
export type PassageSource = z.infer<typeof PassageSourceSchema>

/**
 * One evidence passage: `text` is exactly `markdown.slice(start, end)` of the page at `url`. `sources`
 * is present when near-identical passages of several pages were folded into this one; it lists every
 * page, this one first.
 */
export const PassageSchema = z.object({
  id: z.string().regex(/^p[1-9]\d*$/),
  url: z.string(),
  title: z.string(),
  heading: z.string(),
  text: z.string(),
  start: Offset,
  end: Offset,
  score: z.number().min(0).max(1),
  resultRank: ResultRank,
  sources: z.array(PassageSourceSchema).min(2).optional(),
})
export type Passage = z.infer<typeof PassageSchema>

/** A read page: its markdown and where its result ranked in the search. */
export const ReadPageSchema = z.object({
  url: z.string().min(1),
  title: z.string(),
  markdown: z.string(),
  /** 1 for the top result. */
  resultRank: ResultRank,
  /** The search's score of the result (any non-negative scale; only ratios between pages count). */
  resultScore: z.number().finite().nonnegative(),
})
export type ReadPage = z.infer<typeof ReadPageSchema>

/** Limits of the query side: past them the input is refused (`InputError`). Page text past its limits is cut instead. */
export const PASSAGE_INPUT_LIMITS = Object.freeze({
  maxPages: 20,
  maxQueryChars: 1_000,
  maxSubQueries: 10,
})

/** What `findPassages` is asked: the query, its sub-queries and the read pages. */
export const PassageQuerySchema = z.object({
  query: z.string().trim().min(1).max(PASSAGE_INPUT_LIMITS.maxQueryChars),
  subQueries: z
    .array(z.string().max(PASSAGE_INPUT_LIMITS.maxQueryChars))
    .max(PASSAGE_INPUT_LIMITS.maxSubQueries)
    .default([]),
  pages: z.array(ReadPageSchema).max(PASSAGE_INPUT_LIMITS.maxPages),
})
export type PassageQuery = z.input<typeof PassageQuerySchema>
