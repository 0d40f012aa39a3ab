import { PassageSchema } from '@search-layer/passages'
import { z } from 'zod'

/**
 * Bounds on untrusted text. The answer is model output: past `maxAnswerChars` it is cut (`truncated: true`), never
 * refused. A sentence keeps its first `maxCitationsPerSentence` citations; the others are counted in
 * `droppedCitations` and not checked. A quote longer than `maxQuoteChars` is not searched (`quote-too-long`).
 */
export const ANSWER_LIMITS = Object.freeze({
  maxAnswerChars: 20_000,
  maxCitationsPerSentence: 8,
  maxQuoteChars: 2_000,
  maxPassages: 200,
  maxQuestionChars: 1_000,
  maxSearched: 20,
  maxSearchedChars: 200,
})

/**
 * Why a citation is not simply verified: `unknown-passage` (no passage has that id), `quote-not-found` (the quote
 * is not in the passage), `quote-too-long` (longer than `maxQuoteChars`, not searched), `quote-too-short` (under 3
 * words and 12 characters: found in the passage, it is verified as a bare `[pN]` would be; not found, unverified).
 */
export const CitationReasonSchema = z.enum(['unknown-passage', 'quote-not-found', 'quote-too-long', 'quote-too-short'])
export type CitationReason = z.infer<typeof CitationReasonSchema>

/** One `[pN]` or `[pN: "quote"]` of a sentence, checked. */
export const CitationSchema = z.object({
  /** The passage id as cited, lower-cased: `p3`. */
  passage: z.string(),
  /** The quote as written, without its quotation marks. */
  quote: z.string().optional(),
  verified: z.boolean(),
  reason: CitationReasonSchema.optional(),
})
export type Citation = z.infer<typeof CitationSchema>

export const SentenceStatusSchema = z.enum(['supported', 'unverified', 'uncited'])
export type SentenceStatus = z.infer<typeof SentenceStatusSchema>

/**
 * One sentence of the answer with its citations: `text` is `answer.slice(start, end)`, citation markers included.
 * `supported`: at least one verified citation; `unverified`: citations, none verified; `uncited`: none.
 */
export const CheckedSentenceSchema = z.object({
  text: z.string(),
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  status: SentenceStatusSchema,
  citations: z.array(CitationSchema),
})
export type CheckedSentence = z.infer<typeof CheckedSentenceSchema>

export const AnswerCountsSchema = z.object({
  supported: z.number().int().nonnegative(),
  unverified: z.number().int().nonnegative(),
  uncited: z.number().int().nonnegative(),
})
export type AnswerCounts = z.infer<typeof AnswerCountsSchema>

/** An answer checked sentence by sentence against the passages it cites. */
export const CheckedAnswerSchema = z.object({
  /** The answer text as checked (cut at `maxAnswerChars`); sentence offsets point into it. */
  answer: z.string(),
  sentences: z.array(CheckedSentenceSchema),
  counts: AnswerCountsSchema,
  /** The answer was longer than `maxAnswerChars`; the rest was not checked and is not in `answer`. */
  truncated: z.boolean(),
  /** Citations past `maxCitationsPerSentence` in a sentence, not checked. */
  droppedCitations: z.number().int().nonnegative(),
})
export type CheckedAnswer = z.infer<typeof CheckedAnswerSchema>

/** An answer made of the passages' own sentences, without a model; `answer` opens with `EXTRACTIVE_LABEL`. */
export const ExtractiveAnswerSchema = CheckedAnswerSchema.extend({ mode: z.literal('extractive') })
export type ExtractiveAnswer = z.infer<typeof ExtractiveAnswerSchema>

/** The answer when no passage supports one: says so, and what was searched. No sentence is counted. */
export const AbstentionSchema = CheckedAnswerSchema.extend({
  abstained: z.literal(true),
  searched: z.array(z.string()),
})
export type Abstention = z.infer<typeof AbstentionSchema>

export const ConfidenceLevelSchema = z.enum(['high', 'medium', 'low', 'none'])
export type ConfidenceLevel = z.infer<typeof ConfidenceLevelSchema>

/** How far the answer can be trusted, and why, in plain words. */
export const ConfidenceSchema = z.object({
  level: ConfidenceLevelSchema,
  /** 0–1, two decimals. */
  score: z.number().min(0).max(1),
  reasons: z.array(z.string()),
})
export type Confidence = z.infer<typeof ConfidenceSchema>

/** Whether every dated source is older than the intent's window (status: 30 days, news: 7). */
export const FreshnessSchema = z.object({
  stale: z.boolean(),
  /** The newest source date (ISO 8601), when any source is dated. */
  newest: z.string().optional(),
  windowDays: z.number().int().positive(),
})
export type Freshness = z.infer<typeof FreshnessSchema>

// Inputs.

export const PassagesInputSchema = z
  .array(PassageSchema)
  .max(ANSWER_LIMITS.maxPassages)
  .superRefine((passages, ctx) => {
    const seen = new Set<string>()
    passages.forEach((p, i) => {
      if (seen.has(p.id))
        ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicate passage id ${JSON.stringify(p.id)}` })
      seen.add(p.id)
    })
  })

export const QuestionSchema = z.string().trim().min(1).max(ANSWER_LIMITS.maxQuestionChars)

/** Options of `extractiveAnswer`. */
export const ExtractiveOptionsSchema = z.object({
  /** Most sentences in the answer. */
  maxSentences: z.number().int().min(1).max(3).default(3),
  /** Sentences are taken from the best this many passages (in score order). */
  maxPassages: z.number().int().min(1).max(20).default(5),
})
export type ExtractiveOptions = z.input<typeof ExtractiveOptionsSchema>

export const ConfidenceInputSchema = z.object({
  counts: AnswerCountsSchema,
  /** The passages the supported sentences cite (`citedPassages(checked, passages)`). */
  passages: z.array(PassageSchema).max(ANSWER_LIMITS.maxPassages),
  /** How many distinct engines returned the cited pages, when the caller knows. */
  engines: z.number().int().nonnegative().optional(),
})
export type ConfidenceInput = z.input<typeof ConfidenceInputSchema>

export const FreshnessInputSchema = z.object({
  /** The question's intent (`classifyIntent`); only `status` and `news` have a window. */
  intent: z.string(),
  /** Each source's date (ISO 8601 or anything `Date.parse` reads); undefined or unreadable ones are ignored. */
  dates: z.array(z.string().max(100).optional()).max(1_000),
  now: z.coerce.date(),
})
export type FreshnessInput = z.input<typeof FreshnessInputSchema>
