import { FreshnessWindowSchema, HttpUrlSchema, INTENTS, type ProviderName } from '@search-layer/core'
import { ASK_LIMITS, ConversationIdSchema } from '@search-layer/ask/schema'
import { PatienceMsSchema, SearchWaitSchema, builtInProviders } from '@search-layer/engine'
import { ReadPagesSchema } from '@search-layer/evidence/options'
import { z } from 'zod'

/** The four tools, in the order agents see them. */
export const TOOL_NAMES = ['web_search', 'web_fetch', 'fetch_thread', 'extract_refs'] as const
export type ToolName = (typeof TOOL_NAMES)[number]
/** `answer` (search, read and answer with checked quotes), offered beside the four when a tool set asks for it. */
export const ANSWER_TOOL = 'answer'
/** A tool a tool set may hold: the four, and `answer`. */
export type ToolSetName = ToolName | typeof ANSWER_TOOL

/** Most results one `web_search` call returns: keeps a tool result small (the original skill's cap). */
export const MAX_RESULTS_CAP = 10
/** Most queries one `web_search` call may run side by side. */
export const MAX_QUERIES = 5

const queryText = z.string().trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters')
const domainList = z.array(z.string().trim().min(1).max(253)).max(20, 'at most 20 domains')
const httpUrl = HttpUrlSchema

function webSearchShape(sources: readonly ProviderName[]) {
  const shape = {
    query: queryText
      .optional()
      .describe(
        'What to search for. Give `query` or `queries`. Operators narrow it: site:example.com, -site:example.com, ' +
          'after:2025-01 / before:2025-06-30, lang:de, filetype:pdf, "exact phrase", -word.',
      ),
    queries: z
      .array(queryText)
      .min(1, 'give at least one query')
      .max(MAX_QUERIES, `at most ${MAX_QUERIES} queries`)
      .optional()
      .describe(
        `Up to ${MAX_QUERIES} different searches to run side by side in one call (e.g. several angles of a question).`,
      ),
    intent: z
      .enum(INTENTS)
      .optional()
      .describe(
        'What kind of question this is; decides freshness, ranking weights and which engines run. Classified automatically when absent.',
      ),
    freshness: FreshnessWindowSchema.optional().describe(
      'Only results from the past day (pd), week (pw), month (pm) or year (py).',
    ),
    // More than the cap is capped rather than refused (the original skill's behaviour): an agent asking for 20
    // gets 10 instead of a wasted round-trip. The JSON Schema still advertises the cap as `maximum`.
    max_results: z
      .number()
      .int()
      .min(1)
      .overwrite((n) => Math.min(n, MAX_RESULTS_CAP))
      .max(MAX_RESULTS_CAP, `at most ${MAX_RESULTS_CAP}`)
      .default(5)
      .describe(`How many results to return (1-${MAX_RESULTS_CAP}, default 5; more is capped at ${MAX_RESULTS_CAP}).`),
    read: ReadPagesSchema.optional().describe(
      'Read the top N results (0-10) and return the passages of them that best answer the query, each with an id ' +
        'such as p1 to cite; slower by up to a few seconds. 0 or absent reads none.',
    ),
    wait: SearchWaitSchema.optional().describe(
      'How long to wait for slow engines. "settled" (default): return once the first engines have answered and the ' +
        'slower ones had a short grace (patience_ms); an engine still running then is listed in providers as "late" ' +
        '(not failed) and its results are left out. "all": wait for every engine up to the deadline, slower, for when ' +
        'completeness matters more than speed.',
    ),
    patience_ms: PatienceMsSchema.optional().describe(
      'With wait "settled": how long (0-120000 ms) the slower engines get once the first engines have answered; ' +
        'default the larger of 300 ms and half the time taken so far. Raise it when a late engine is one you need.',
    ),
    include_domains: domainList.optional().describe('Only return results from these domains (example.com).'),
    exclude_domains: domainList.optional().describe('Never return results from these domains.'),
    sources: z
      .array(z.enum((sources.length > 0 ? sources : ['none']) as [ProviderName, ...ProviderName[]]))
      .min(1)
      .optional()
      .describe(
        `Restrict the search to these engines (live: ${sources.join(', ')}). Leave out to let the intent decide.`,
      ),
  }
  // With no live provider there is nothing to choose from: the field is left out rather than offering dead engines.
  if (sources.length === 0) delete (shape as Partial<typeof shape>).sources
  return shape
}

const refineQuery = <T extends { query?: string; queries?: string[] }>(value: T) =>
  value.query !== undefined || value.queries !== undefined

/**
 * The `web_search` input with `sources` limited to the given providers (omitted when none is given):
 * advertising an engine without a key only teaches the model to fail.
 */
export function webSearchInputSchemaFor(sources: readonly ProviderName[]) {
  return z
    .strictObject(webSearchShape(sources))
    .refine(refineQuery, { message: 'give `query` or `queries`', path: ['query'] })
}

/** `web_search`: `query` or `queries` (1-5), optional intent, freshness, max_results (default 5, larger values capped at 10), read (0-10), wait and patience_ms, domains, sources. */
export const WebSearchInputSchema = webSearchInputSchemaFor(builtInProviders.map((d) => d.id))
export type WebSearchInput = z.input<typeof WebSearchInputSchema>

/** `web_fetch`: one page URL, returned as readable markdown. */
export const WebFetchInputSchema = z.strictObject({
  url: httpUrl.describe('The page to read (http or https).'),
})
export type WebFetchInput = z.input<typeof WebFetchInputSchema>

/** `fetch_thread`: a GitHub issue/PR, Hacker News, Reddit or V2EX thread (or any page), with its references. */
export const FetchThreadInputSchema = z.strictObject({
  url: httpUrl.describe(
    'The thread: a GitHub issue or pull request, a Hacker News, Reddit or V2EX discussion, or any page.',
  ),
  max_comments: z
    .number()
    .int()
    .min(1)
    .max(500)
    .optional()
    .describe('Most comments to read (default: the thread fetcher default).'),
})
export type FetchThreadInput = z.input<typeof FetchThreadInputSchema>

/** `extract_refs`: 1-10 thread or page URLs whose issue, PR, commit and link references are wanted. */
export const ExtractRefsInputSchema = z.strictObject({
  urls: z
    .array(httpUrl)
    .min(1, 'give at least one URL')
    .max(10, 'at most 10 URLs')
    .describe('1-10 threads or pages to collect references from.'),
})
export type ExtractRefsInput = z.input<typeof ExtractRefsInputSchema>

/** `answer`: a question, and the conversation it follows up. */
export const AnswerInputSchema = z.strictObject({
  question: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(ASK_LIMITS.maxQuestionChars, `must be at most ${ASK_LIMITS.maxQuestionChars} characters`)
    .describe('The question, in any language, as the user asked it.'),
  conversation_id: ConversationIdSchema.optional().describe(
    'The `id` of an earlier answer: the question is then a follow-up in that conversation.',
  ),
})
export type AnswerInput = z.input<typeof AnswerInputSchema>

/** The input schema of each tool; `web_search` advertises every provider here, see `webSearchInputSchemaFor`. */
export const TOOL_INPUT_SCHEMAS = {
  web_search: WebSearchInputSchema,
  web_fetch: WebFetchInputSchema,
  fetch_thread: FetchThreadInputSchema,
  extract_refs: ExtractRefsInputSchema,
  answer: AnswerInputSchema,
} as const
