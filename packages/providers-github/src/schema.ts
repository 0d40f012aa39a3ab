import { lazySchema } from '@search-layer/core'
import { z } from 'zod'

// Shapes follow https://docs.github.com/rest/search/search and recorded answers (test/fixtures). Items are parsed
// one by one; `url` in an item is the API URL, the page to show is `html_url`.

/** One entry of `GET /search/repositories` `items`. */
export const GithubRepositoryItemSchema = z.looseObject({
  full_name: z.string().min(1),
  html_url: z.string(),
  description: z.string().nullish(),
  stargazers_count: z.number().nullish(),
  forks_count: z.number().nullish(),
  language: z.string().nullish(),
  topics: z.array(z.string()).nullish(),
  archived: z.boolean().nullish(),
  pushed_at: z.string().nullish(),
  updated_at: z.string().nullish(),
  license: z.looseObject({ spdx_id: z.string().nullish() }).nullish(),
})

/** One entry of `GET /search/issues` `items` (issues and pull requests). */
export const GithubIssueItemSchema = z.looseObject({
  html_url: z.string(),
  repository_url: z.string().nullish(),
  number: z.number(),
  title: z.string(),
  body: z.string().nullish(),
  state: z.string().nullish(),
  state_reason: z.string().nullish(),
  comments: z.number().nullish(),
  labels: z.array(z.looseObject({ name: z.string().nullish() })).nullish(),
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
  closed_at: z.string().nullish(),
  pull_request: z.unknown().optional(),
})
export type GithubIssueItem = z.infer<typeof GithubIssueItemSchema>

/** The body of a successful search. */
export const GithubSearchResponseSchema = z.looseObject({
  total_count: z.number().nullish(),
  incomplete_results: z.boolean().nullish(),
  items: z.array(z.unknown()),
})
export type GithubSearchResponse = z.infer<typeof GithubSearchResponseSchema>

/** GitHub's error body: `{message, documentation_url, errors?, status?}`. */
export const githubErrorSchema = lazySchema(() =>
  z.looseObject({
    message: z.string(),
    documentation_url: z.string().nullish(),
    errors: z.array(z.looseObject({ message: z.string().nullish(), code: z.string().nullish() })).nullish(),
  }),
)
