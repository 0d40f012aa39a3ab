import { MAX_QUERY_CHARS } from '@search-layer/core'
import { z } from 'zod'

// What a caller may ask of reading: zod only, so a search request schema can hold it (`@search-layer/evidence/options`)
// without loading page-fetch, the passage ranker or the tokenizer.

/** Bounds and defaults of reading. */
export const READ_LIMITS = Object.freeze({
  /** Most pages one search reads. */
  maxPages: 10,
  /** Pages read when reading is asked for without a count (`--read`). */
  defaultPages: 5,
  /** Tokens (o200k_base) of passage text returned, summed over the passages. */
  defaultBudgetTokens: 2_000,
  maxBudgetTokens: 100_000,
  /** Time allowed for one page: every redirect hop, the body and its extraction. */
  defaultTimeoutMs: 5_000,
  minTimeoutMs: 100,
  maxTimeoutMs: 60_000,
  /** Longest `question` (characters); the passage ranker reads its first 1,000. */
  maxQuestionChars: MAX_QUERY_CHARS,
})

const PAGES_MESSAGE = `must be a whole number from 0 to ${READ_LIMITS.maxPages}`

/** How many top results to read: a whole number from 0 to 10. */
export const ReadPagesSchema = z
  .number({ error: PAGES_MESSAGE })
  .int(PAGES_MESSAGE)
  .min(0, PAGES_MESSAGE)
  .max(READ_LIMITS.maxPages, PAGES_MESSAGE)

/** Reading's options, each with its default. */
export const ReadOptionsSchema = z
  .object({
    /** Top results read, 0–10; 0 reads none. */
    pages: ReadPagesSchema.default(READ_LIMITS.defaultPages),
    /** Most tokens (o200k_base) of passage text returned, over all passages. */
    budgetTokens: z.number().int().min(1).max(READ_LIMITS.maxBudgetTokens).default(READ_LIMITS.defaultBudgetTokens),
    /** Time allowed for each page (ms); the search's deadline still bounds it. */
    timeoutMs: z
      .number()
      .int()
      .min(READ_LIMITS.minTimeoutMs)
      .max(READ_LIMITS.maxTimeoutMs)
      .default(READ_LIMITS.defaultTimeoutMs),
    /**
     * What the passages should answer, ranked against beside the search's queries: an agent searches with terse
     * queries ("zorblax 4.2 date") for a user's question ("When was Zorblax 4.2 released?"), and passages that
     * answer the question but share no word with the query would otherwise be dropped.
     */
    question: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(READ_LIMITS.maxQuestionChars, `must be at most ${READ_LIMITS.maxQuestionChars} characters`)
      .optional(),
  })
  .strict()
export type ReadOptions = z.output<typeof ReadOptionsSchema>

/**
 * The `read` field of a search request: a page count (`read: 5`) or the options (`read: { pages: 5, budgetTokens:
 * 1000, question: '…' }`), parsed to the options. A bad count is refused as `must be a whole number from 0 to 10`.
 */
export const ReadRequestSchema = z
  .union([ReadPagesSchema, ReadOptionsSchema], {
    error: `${PAGES_MESSAGE}, or { pages, budgetTokens, timeoutMs, question }`,
  })
  .transform((read): ReadOptions => (typeof read === 'number' ? ReadOptionsSchema.parse({ pages: read }) : read))
export type ReadRequest = z.input<typeof ReadRequestSchema>
