import { lazySchema } from '@search-layer/core'
import { z } from 'zod'

// Shapes follow https://hn.algolia.com/api and recorded answers (test/fixtures). Hits are parsed one by one, so an
// odd entry is dropped and counted instead of sinking the answer. Text posts (Ask HN) have no `url`; comments have
// `comment_text` and their story's `story_title`/`story_url`.

/** One entry of `hits`. */
export const HackerNewsHitSchema = z.looseObject({
  objectID: z.string(),
  title: z.string().nullish(),
  url: z.string().nullish(),
  author: z.string().nullish(),
  points: z.number().nullish(),
  num_comments: z.number().nullish(),
  story_text: z.string().nullish(),
  comment_text: z.string().nullish(),
  story_id: z.number().nullish(),
  story_title: z.string().nullish(),
  story_url: z.string().nullish(),
  /** ISO 8601 with a `Z`. */
  created_at: z.string().nullish(),
  /** Epoch seconds. */
  created_at_i: z.number().nullish(),
  _tags: z.array(z.string()).nullish(),
})
export type HackerNewsHit = z.infer<typeof HackerNewsHitSchema>

/** The body of a successful `GET /search` or `/search_by_date`. */
export const HackerNewsSearchResponseSchema = z.looseObject({
  hits: z.array(z.unknown()),
  nbHits: z.number().nullish(),
  page: z.number().nullish(),
  nbPages: z.number().nullish(),
  hitsPerPage: z.number().nullish(),
  query: z.string().nullish(),
  params: z.string().nullish(),
})
export type HackerNewsSearchResponse = z.infer<typeof HackerNewsSearchResponseSchema>

/** Algolia's error body: `{"message": "...", "status": 400}`. */
export const hackerNewsErrorSchema = lazySchema(() =>
  z.looseObject({
    message: z.string(),
    status: z.number().nullish(),
  }),
)
