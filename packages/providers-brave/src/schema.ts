import { lazySchema } from '@search-layer/core'
import { z } from 'zod'

// Shapes follow https://api-dashboard.search.brave.com/app/documentation/web-search/responses.
// Everything but the envelope is optional: Brave omits whole sections (`web`, `profile`, `page_age`) freely.

/** One entry of `web.results`; parsed one by one so a single odd entry never sinks the answer. */
export const BraveWebResultSchema = z.looseObject({
  type: z.string().nullish(),
  title: z.string().nullish(),
  url: z.string().nullish(),
  description: z.string().nullish(),
  /** Date-time without a timezone, e.g. `2025-10-02T14:10:05`. */
  page_age: z.string().nullish(),
  /** Human text (`2 days ago`, `October 2, 2025`): kept as an extra, never parsed. */
  age: z.string().nullish(),
  language: z.string().nullish(),
  family_friendly: z.boolean().nullish(),
  extra_snippets: z.array(z.string()).nullish(),
  profile: z.looseObject({ name: z.string().nullish(), long_name: z.string().nullish() }).nullish(),
  meta_url: z.looseObject({ hostname: z.string().nullish(), favicon: z.string().nullish() }).nullish(),
})

/** The body of a successful `GET /res/v1/web/search`. */
export const BraveSearchResponseSchema = z.looseObject({
  type: z.string().nullish(),
  query: z
    .looseObject({
      original: z.string().nullish(),
      altered: z.string().nullish(),
      more_results_available: z.boolean().nullish(),
    })
    .nullish(),
  web: z
    .looseObject({
      type: z.string().nullish(),
      results: z.array(z.unknown()).nullish(),
      family_friendly: z.boolean().nullish(),
    })
    .nullish(),
})
export type BraveSearchResponse = z.infer<typeof BraveSearchResponseSchema>

/**
 * `error.meta` of rate-limit and quota errors (`plan`, per-second `rate_*`, monthly `quota_*`) and of validation
 * errors (`errors[]` with pydantic-style `loc`/`msg`). Every field is optional: a 422 VALIDATION may send `{}`.
 */
export const braveErrorMetaSchema = lazySchema(() =>
  z.looseObject({
    plan: z.string().nullish(),
    rate_limit: z.number().nullish(),
    rate_current: z.number().nullish(),
    quota_limit: z.number().nullish(),
    quota_current: z.number().nullish(),
    component: z.string().nullish(),
    errors: z
      .array(
        z.looseObject({
          loc: z.array(z.union([z.string(), z.number()])).nullish(),
          msg: z.string().nullish(),
        }),
      )
      .nullish(),
  }),
)
export type BraveErrorMeta = z.infer<ReturnType<typeof braveErrorMetaSchema>>

/** Brave's error envelope: `{type: "ErrorResponse", error: {id, status, code, detail, meta}, time}`. */
export const braveErrorSchema = lazySchema(() =>
  z.looseObject({
    type: z.string().nullish(),
    error: z.looseObject({
      id: z.string().nullish(),
      status: z.number().nullish(),
      /** `SUBSCRIPTION_TOKEN_INVALID`, `VALIDATION`, `RATE_LIMITED`, `QUOTA_LIMITED`, `OPTION_NOT_IN_PLAN`… */
      code: z.string().nullish(),
      detail: z.string().nullish(),
      meta: z.unknown().optional(),
    }),
    time: z.number().nullish(),
  }),
)
