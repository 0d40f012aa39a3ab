import { z } from 'zod'

// The parts of GitHub's REST answers a thread is read from; loose, so fields GitHub adds pass through unread.

const UserSchema = z.looseObject({ login: z.string() }).nullable().optional()
const LabelSchema = z.union([z.string(), z.looseObject({ name: z.string() })])
const ReactionsSchema = z.record(z.string(), z.unknown()).optional()

export const IssueSchema = z.looseObject({
  url: z.string(),
  repository_url: z.string().optional(),
  html_url: z.string(),
  number: z.number().int(),
  title: z.string(),
  body: z.string().nullable().optional(),
  state: z.string(),
  state_reason: z.string().nullable().optional(),
  user: UserSchema,
  labels: z.array(LabelSchema).default([]),
  comments: z.number().int().nonnegative().default(0),
  created_at: z.string().nullable().optional(),
  updated_at: z.string().nullable().optional(),
  closed_at: z.string().nullable().optional(),
  locked: z.boolean().optional(),
  reactions: ReactionsSchema,
  pull_request: z.looseObject({ merged_at: z.string().nullable().optional() }).optional(),
})
export type Issue = z.infer<typeof IssueSchema>

export const CommentSchema = z.looseObject({
  id: z.number(),
  body: z.string().nullable().optional(),
  user: UserSchema,
  created_at: z.string().nullable().optional(),
  html_url: z.string().optional(),
  reactions: ReactionsSchema,
})
export const ReviewSchema = z.looseObject({
  id: z.number(),
  body: z.string().nullable().optional(),
  state: z.string(),
  user: UserSchema,
  submitted_at: z.string().nullable().optional(),
  html_url: z.string().optional(),
})
export const ReviewCommentSchema = z.looseObject({
  id: z.number(),
  body: z.string().nullable().optional(),
  path: z.string(),
  line: z.number().nullable().optional(),
  user: UserSchema,
  created_at: z.string().nullable().optional(),
  html_url: z.string().optional(),
})
export const PullSchema = z.looseObject({
  merged: z.boolean().optional(),
  merged_at: z.string().nullable().optional(),
  merge_commit_sha: z.string().nullable().optional(),
  draft: z.boolean().optional(),
  head: z.looseObject({ ref: z.string(), sha: z.string() }).optional(),
  base: z.looseObject({ ref: z.string() }).optional(),
  commits: z.number().optional(),
  additions: z.number().optional(),
  deletions: z.number().optional(),
  changed_files: z.number().optional(),
})
