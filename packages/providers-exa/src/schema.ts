import { z } from 'zod'

// Shapes follow https://exa.ai/docs/reference/search and https://exa.ai/docs/reference/error-codes.

/** Exa's search modes; `auto` lets Exa pick. Deep modes run a slower research pass. */
const ExaSearchTypeSchema = z.enum([
  'auto',
  'fast',
  'instant',
  'neural',
  'keyword',
  'deep-lite',
  'deep',
  'deep-reasoning',
])
export type ExaSearchType = z.infer<typeof ExaSearchTypeSchema>

/** The body this package sends to `POST /search` (built by `buildExaRequest`). */
export const ExaSearchRequestSchema = z.object({
  query: z.string().min(1),
  type: ExaSearchTypeSchema,
  numResults: z.number().int().min(1).max(100),
  contents: z.object({
    highlights: z.object({ maxCharacters: z.number().int().positive() }).optional(),
    text: z.object({ maxCharacters: z.number().int().positive() }).optional(),
  }),
  includeDomains: z.array(z.string()).optional(),
  excludeDomains: z.array(z.string()).optional(),
  startPublishedDate: z.iso.datetime().optional(),
  endPublishedDate: z.iso.datetime().optional(),
  /** One string of up to five words the page text must contain. */
  includeText: z.array(z.string()).max(1).optional(),
  /** One string of up to five words the page text must not contain. */
  excludeText: z.array(z.string()).max(1).optional(),
  userLocation: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .optional(),
  category: z.string().optional(),
})
export type ExaSearchRequest = z.infer<typeof ExaSearchRequestSchema>

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
export const ExaErrorSchema = z.looseObject({
  requestId: z.string().nullish(),
  error: z.string().nullish(),
  tag: z.string().nullish(),
})
