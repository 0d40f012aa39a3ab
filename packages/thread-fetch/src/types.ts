import { z } from 'zod'
import { REF_TYPES } from './ref-types.js'

export { REF_TYPES }

/** The kind of a reference: closing keywords, duplicates, timeline cross-references, plain mentions, URLs. */
export const RefTypeSchema = z.enum(REF_TYPES)
export type RefType = z.infer<typeof RefTypeSchema>

/** One typed reference found in a thread, deduplicated by its canonical key. */
export const RefSchema = z.object({
  type: RefTypeSchema,
  /** Absolute URL; absent only for `#123`-style references when the repository is unknown. */
  url: z.string().optional(),
  /** The deduplication key: `github:owner/repo#123`, `github:owner/repo@sha`, or core's `canonicalUrl`. */
  key: z.string(),
  /** The reference as written (`#17`, `octo/other#12`, the anchor text of a markdown link). */
  text: z.string(),
  /** Surrounding text (± `contextChars`), whitespace collapsed. */
  context: z.string(),
  /** `owner/repo` for GitHub references. */
  repo: z.string().optional(),
  number: z.number().int().optional(),
  sha: z.string().optional(),
  /** Title and state, known for timeline cross-references. */
  title: z.string().optional(),
  state: z.string().optional(),
  /** Where it was first seen: `body`, `comment:<id>`, `review:<id>`, `timeline`. */
  source: z.string(),
  /** How many times it was seen across the thread. */
  count: z.number().int().positive(),
})
export type Ref = z.infer<typeof RefSchema>

/** A link of a generic page's main content. */
export const PageLinkSchema = z.object({ url: z.string(), text: z.string(), context: z.string() })
export type PageLink = z.infer<typeof PageLinkSchema>

/** One comment, review or inline review comment (or a reply on HN/Reddit/V2EX). */
export const ThreadCommentSchema = z.object({
  id: z.string(),
  kind: z.enum(['comment', 'review', 'review_comment', 'reply']),
  author: z.string().nullable(),
  body: z.string(),
  createdAt: z.string().nullable(),
  url: z.string().optional(),
  /** Nesting depth for tree-shaped threads (HN, Reddit); 0 = top level. */
  depth: z.number().int().nonnegative().optional(),
  parentId: z.string().optional(),
  /** Review state (`APPROVED`, `CHANGES_REQUESTED`, `COMMENTED`). */
  reviewState: z.string().optional(),
  /** File and line of an inline review comment. */
  path: z.string().optional(),
  line: z.number().int().nullable().optional(),
  score: z.number().optional(),
})
export type ThreadComment = z.infer<typeof ThreadCommentSchema>

/** What kind of page a thread came from. */
export const ThreadTypeSchema = z.enum([
  'github_issue',
  'github_pr',
  'github_discussion',
  'hackernews',
  'reddit',
  'v2ex',
  'page',
])
export type ThreadType = z.infer<typeof ThreadTypeSchema>

/** The serialisable error attached to a thread that could not be fetched (batch and chain output). */
export const ThreadErrorSchema = z.object({
  kind: z.string(),
  message: z.string(),
  status: z.number().optional(),
  code: z.string().optional(),
})
export type ThreadError = z.infer<typeof ThreadErrorSchema>

/** A whole thread: the JSON output shape (`url, type, title, body, state, labels, comments, refs, links, metadata, error?`). */
export const ThreadSchema = z.object({
  url: z.string(),
  type: ThreadTypeSchema,
  title: z.string(),
  body: z.string(),
  /** `open`, `closed`, `merged` for GitHub; null where a site has no state. */
  state: z.string().nullable(),
  labels: z.array(z.string()),
  comments: z.array(ThreadCommentSchema),
  refs: z.array(RefSchema),
  links: z.array(PageLinkSchema),
  /** Author, dates, reactions, counts, what was cut (`truncated`), where it moved from… */
  metadata: z.record(z.string(), z.unknown()),
  error: ThreadErrorSchema.optional(),
})
export type Thread = z.infer<typeof ThreadSchema>
