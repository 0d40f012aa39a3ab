import { lazySchema } from '@search-layer/core'
import { z } from 'zod'

// Shapes follow https://api.stackexchange.com/docs/advanced-search and recorded answers (test/fixtures). Titles and
// bodies are HTML (entities escaped); dates are epoch seconds.

/** One question of `items`. */
export const StackExchangeQuestionSchema = z.looseObject({
  question_id: z.number(),
  link: z.string(),
  title: z.string(),
  body: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
  is_answered: z.boolean().nullish(),
  accepted_answer_id: z.number().nullish(),
  answer_count: z.number().nullish(),
  score: z.number().nullish(),
  view_count: z.number().nullish(),
  creation_date: z.number().nullish(),
  last_activity_date: z.number().nullish(),
  content_license: z.string().nullish(),
})

/** The wrapper of every answer: items plus quota and `backoff` (seconds to leave this method alone). */
export const StackExchangeResponseSchema = z.looseObject({
  items: z.array(z.unknown()),
  has_more: z.boolean().nullish(),
  quota_max: z.number().nullish(),
  quota_remaining: z.number().nullish(),
  backoff: z.number().nullish(),
})
export type StackExchangeResponse = z.infer<typeof StackExchangeResponseSchema>

/** The error wrapper: `{error_id, error_name, error_message}`. */
export const stackExchangeErrorSchema = lazySchema(() =>
  z.looseObject({
    error_id: z.number(),
    error_name: z.string(),
    error_message: z.string().nullish(),
  }),
)
