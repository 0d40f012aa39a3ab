import { AskResultSchema } from '@search-layer/ask/schema'
import { SearchResponseSchema } from '@search-layer/engine/schemas'
import { ReadablePageSchema } from '@search-layer/page-fetch/schemas'
import { RefSchema, ThreadErrorSchema, ThreadSchema, ThreadTypeSchema } from '@search-layer/thread-fetch'
import { z } from 'zod'

// The data each tool returns beside its text (`ToolResult.data`), written once: results.ts builds the data as these
// types, and MCP declares them as the tools' output schemas, so what is promised and what is sent cannot drift.

/** A failed call's data: what kind of failure and a sentence saying what to do. */
export const ToolErrorSchema = z.object({ kind: z.string(), message: z.string() })

/** `web_search`'s data: the engine's response without its internals, `answer` null when no engine gave one. */
export const WebSearchDataSchema = SearchResponseSchema.pick({
  query: true,
  queries: true,
  intent: true,
  mode: true,
  results: true,
  providers: true,
  partial: true,
  cached: true,
  warnings: true,
  keyless_only: true,
  reads: true,
  passages: true,
}).extend({
  answer: z.string().nullable(),
  error: ToolErrorSchema.optional().describe('Present when every engine failed or is resting.'),
})

/** `web_fetch`'s data: the page read, its markdown within the size budget. */
export const WebFetchDataSchema = ReadablePageSchema.omit({ text: true }).extend({
  truncated: z.boolean().describe('Whether `markdown` was cut to fit the size budget.'),
  totalChars: z.number().int().nonnegative().describe('The length of the whole markdown.'),
  links: ReadablePageSchema.shape.links.describe('The first 50 links.'),
})

/** `fetch_thread`'s data: the thread's facts and references (its posts are in the text). */
export const FetchThreadDataSchema = ThreadSchema.pick({
  url: true,
  type: true,
  title: true,
  state: true,
  labels: true,
  refs: true,
  metadata: true,
  error: true,
}).extend({
  commentCount: z.number().int().nonnegative(),
  truncated: z.boolean().describe('Whether the text was cut to fit the size budget.'),
})

/** The references of one URL, or why they could not be read (`UrlRefs` of thread-fetch). */
export const UrlRefsSchema = z.object({
  url: z.string(),
  title: z.string().optional(),
  type: ThreadTypeSchema.optional(),
  refs: z.array(RefSchema),
  error: ThreadErrorSchema.optional(),
})

/** `extract_refs`'s data: each URL's references. */
export const ExtractRefsDataSchema = z.object({
  results: z.array(UrlRefsSchema),
  truncated: z.boolean().describe('Whether the text was cut to fit the size budget.'),
})

/** The data schema of each tool's result (`ToolResult.data` of a successful call). */
export const TOOL_OUTPUT_SCHEMAS = {
  web_search: WebSearchDataSchema,
  web_fetch: WebFetchDataSchema,
  fetch_thread: FetchThreadDataSchema,
  extract_refs: ExtractRefsDataSchema,
  /** The ask's result, the schema MCP's `answer` declares too. */
  answer: AskResultSchema,
} as const

export type WebSearchData = z.infer<typeof WebSearchDataSchema>
export type WebFetchData = z.infer<typeof WebFetchDataSchema>
export type FetchThreadData = z.infer<typeof FetchThreadDataSchema>
export type ExtractRefsData = z.infer<typeof ExtractRefsDataSchema>
