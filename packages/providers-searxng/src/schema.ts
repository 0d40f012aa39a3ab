import { z } from 'zod'

// Shapes follow https://docs.searxng.org/dev/search_api.html and a recorded answer (test/fixtures). Results are
// parsed one by one. `number_of_results` was dropped from the JSON output in 2026 and is not read.

/** One entry of `results`. */
export const SearxngResultSchema = z.looseObject({
  url: z.string(),
  title: z.string().nullish(),
  content: z.string().nullish(),
  /** ISO date-time without a zone, or null. */
  publishedDate: z.string().nullish(),
  engine: z.string().nullish(),
  engines: z.array(z.string()).nullish(),
  score: z.number().nullish(),
  category: z.string().nullish(),
  thumbnail: z.string().nullish(),
  author: z.string().nullish(),
})

/** The body of `GET /search?format=json`. */
export const SearxngResponseSchema = z.looseObject({
  query: z.string().nullish(),
  results: z.array(z.unknown()),
  suggestions: z.array(z.unknown()).nullish(),
  /** `[engine, reason]` pairs, e.g. `["duckduckgo", "CAPTCHA"]`. */
  unresponsive_engines: z.array(z.unknown()).nullish(),
})
export type SearxngResponse = z.infer<typeof SearxngResponseSchema>
