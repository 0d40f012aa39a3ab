import { z } from 'zod'

// Shapes follow https://www.mediawiki.org/wiki/API:Search and recorded answers (test/fixtures). The Action API puts
// its own errors in a 200 answer (`{"error": {code, info}}`), so one schema reads both.

/** One entry of `query.search`. */
export const WikipediaSearchHitSchema = z.looseObject({
  ns: z.number().nullish(),
  title: z.string().min(1),
  pageid: z.number().nullish(),
  size: z.number().nullish(),
  wordcount: z.number().nullish(),
  /** HTML: matches wrapped in `<span class="searchmatch">`, entities escaped. */
  snippet: z.string().nullish(),
  /** Last edit, ISO 8601. */
  timestamp: z.string().nullish(),
})

/** The Action API's error object (`formatversion=2`; version 1 adds a `*` text). */
const WikipediaApiErrorSchema = z.looseObject({
  code: z.string(),
  info: z.string().nullish(),
})
export type WikipediaApiError = z.infer<typeof WikipediaApiErrorSchema>

/** The body of `GET /w/api.php?action=query&list=search&format=json`: results, or an API error. */
export const WikipediaSearchResponseSchema = z.looseObject({
  error: WikipediaApiErrorSchema.optional(),
  query: z
    .looseObject({
      searchinfo: z.looseObject({ totalhits: z.number().nullish(), suggestion: z.string().nullish() }).nullish(),
      search: z.array(z.unknown()),
    })
    .optional(),
})
export type WikipediaSearchResponse = z.infer<typeof WikipediaSearchResponseSchema>
