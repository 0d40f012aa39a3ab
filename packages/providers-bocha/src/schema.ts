import { lazySchema } from '@search-layer/core'
import { z } from 'zod'

// Shapes follow Bocha's Web Search API documentation and its recorded examples (test/fixtures). Success is
// `{code: 200, log_id, msg, data}`; an error is `{code: "403", message, log_id}`: the code is a string there.

/** One entry of `data.webPages.value`. */
export const BochaWebPageSchema = z.looseObject({
  name: z.string().nullish(),
  url: z.string(),
  snippet: z.string().nullish(),
  /** Present when the request asked for `summary: true`. */
  summary: z.string().nullish(),
  siteName: z.string().nullish(),
  siteIcon: z.string().nullish(),
  /** ISO 8601 with the Beijing offset, e.g. `2024-07-24T08:00:00+08:00`; missing on older answers. */
  datePublished: z.string().nullish(),
  dateLastCrawled: z.string().nullish(),
})

/** The body of a successful `POST /v1/web-search`. */
export const BochaSearchResponseSchema = z.looseObject({
  code: z.union([z.number(), z.string()]),
  log_id: z.string().nullish(),
  msg: z.string().nullish(),
  data: z
    .looseObject({
      webPages: z
        .looseObject({
          totalEstimatedMatches: z.number().nullish(),
          value: z.array(z.unknown()).nullish(),
        })
        .nullish(),
    })
    .nullish(),
})
export type BochaSearchResponse = z.infer<typeof BochaSearchResponseSchema>

/** Bocha's error body. */
export const bochaErrorSchema = lazySchema(() =>
  z.looseObject({
    code: z.union([z.number(), z.string()]),
    message: z.string().nullish(),
    msg: z.string().nullish(),
    log_id: z.string().nullish(),
  }),
)
