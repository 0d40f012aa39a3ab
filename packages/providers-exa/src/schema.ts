import { lazySchema } from '@search-layer/core'
import { z } from 'zod'

// Shapes follow https://exa.ai/docs/reference/search and https://exa.ai/docs/reference/error-codes.

/** One entry of `results`; parsed one by one so a single odd entry never sinks the answer. */
export const ExaResultSchema = z.looseObject({
  id: z.string().nullish(),
  url: z.string().nullish(),
  /** Exa sends null for pages without a title. */
  title: z.string().nullish(),
  /** ISO 8601 with milliseconds, e.g. `2025-06-04T00:00:00.000Z`. */
  publishedDate: z.string().nullish(),
  author: z.string().nullish(),
  score: z.number().nullish(),
  image: z.string().nullish(),
  favicon: z.string().nullish(),
  text: z.string().nullish(),
  highlights: z.array(z.string()).nullish(),
  highlightScores: z.array(z.number()).nullish(),
  summary: z.string().nullish(),
})

/** The body of a successful `POST /search`. */
export const ExaSearchResponseSchema = z.looseObject({
  requestId: z.string().nullish(),
  resolvedSearchType: z.string().nullish(),
  searchType: z.string().nullish(),
  results: z.array(z.unknown()),
  costDollars: z
    .looseObject({
      total: z.number().nullish(),
    })
    .nullish(),
})
export type ExaSearchResponse = z.infer<typeof ExaSearchResponseSchema>

/** Exa's error body: `{requestId, error, tag}` (`INVALID_API_KEY`, `NO_MORE_CREDITS`…). */
export const exaErrorSchema = lazySchema(() =>
  z.looseObject({
    requestId: z.string().nullish(),
    error: z.string().nullish(),
    tag: z.string().nullish(),
  }),
)
