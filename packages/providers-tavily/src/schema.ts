import { lazySchema } from '@search-layer/core'
import { z } from 'zod'

// Schemas follow https://docs.tavily.com/documentation/api-reference/endpoint/search and the
// official client (tavily-ai/tavily-python `tavily/tavily.py`). Response schemas are lenient:
// every field the vendor may omit or null is `.nullish()`, and unknown fields pass through.

/** One entry of `results[]`. Validated per item, so one bad item never sinks the whole answer. */
export const TavilyResultSchema = z.looseObject({
  title: z.string().nullish(),
  url: z.string().nullish(),
  content: z.string().nullish(),
  score: z.number().nullish(),
  raw_content: z.string().nullish(),
  /** An HTTP-date (`Tue, 05 Nov 2024 14:03:00 GMT`), mostly present for `topic: "news"`. */
  published_date: z.string().nullish(),
  favicon: z.string().nullish(),
})

/** The `POST /search` 200 body. */
export const TavilySearchResponseSchema = z.looseObject({
  query: z.string().nullish(),
  answer: z.string().nullish(),
  follow_up_questions: z.unknown().optional(),
  images: z.unknown().optional(),
  results: z.array(z.unknown()),
  response_time: z.union([z.number(), z.string()]).nullish(),
  /** Present with `include_usage: true`. */
  usage: z.looseObject({ credits: z.number().nonnegative().nullish() }).nullish(),
  request_id: z.string().nullish(),
})

/** Tavily's error body: `{"detail": {"error": "..."}}` (FastAPI style; some gateways send a bare string). */
export const tavilyErrorSchema = lazySchema(() =>
  z.looseObject({
    detail: z.union([z.string(), z.looseObject({ error: z.string().nullish() })]).nullish(),
    error: z
      .union([z.string(), z.looseObject({ message: z.string().nullish(), code: z.string().nullish() })])
      .nullish(),
  }),
)
