import type { ProviderErrorKind, ProviderName } from '@search-layer/core'
import { ConfigError, InputError, formatIssues, isProviderError } from '@search-layer/core'
import type { ProviderStatus, SearchRequest, SearchResponse } from '@search-layer/engine'
import { z } from 'zod'

/** What a tool gets to do its work. */
export interface ToolContext {
  search(request: SearchRequest): Promise<SearchResponse>
  providerStatus(): Promise<ProviderStatus[]>
  signal: AbortSignal
}

/** What a tool call returns: text for the model, structured data for programs. */
export interface ToolResult {
  content: string
  data: unknown
  isError: boolean
}

/** An agent tool: a zod schema for its function-call arguments and a runner. */
export interface Tool {
  name: string
  description: string
  schema: z.ZodType
  run(args: unknown, context: ToolContext): Promise<ToolResult>
}

/** The friendly sentences of the original product brief, by error kind. */
export const FRIENDLY_SEARCH_ERRORS: Record<'timeout' | 'auth' | 'rate_limited' | 'quota' | 'not_configured' | 'other', string> = {
  timeout: 'The web search timed out before the search service answered. Please try again in a moment, or with a shorter query.',
  auth: 'The web search failed because the search service rejected its API key (invalid or expired). Ask the operator of this server to check the key.',
  rate_limited: 'The web search is being rate-limited by the search service right now. Please wait a little and try again.',
  quota: "The web search quota for this period is used up (the search service's monthly credits are exhausted). Searches work again when the quota resets or the plan is raised.",
  not_configured: 'Web search is not available: no search service is configured on this server.',
  other: 'The web search failed because the search service is unavailable right now. Please try again later.',
}

// When several providers fail differently, the one the operator must act on comes first.
const KIND_PRIORITY: readonly ProviderErrorKind[] = ['auth', 'quota', 'rate_limited', 'timeout']

function friendlyKind(kinds: ProviderErrorKind[]): keyof typeof FRIENDLY_SEARCH_ERRORS {
  for (const kind of KIND_PRIORITY) if (kinds.includes(kind)) return kind as keyof typeof FRIENDLY_SEARCH_ERRORS
  return 'other'
}

const WebSearchArgsSchema = z
  .object({
    query: z.string().trim().min(1, 'must not be empty').describe('What to search the web for.'),
    max_results: z
      .number()
      .int()
      .min(1)
      .default(5)
      .describe('How many results to return (default 5; values above 10 are capped at 10).'),
  })
  .strict()

/** `web_search`: query + max_results (default 5, capped at 10) → numbered title/URL/snippet/relevance list. */
export function webSearchTool({ maxQueryChars }: { maxQueryChars: number }): Tool {
  const schema = WebSearchArgsSchema.extend({
    query: WebSearchArgsSchema.shape.query.max(maxQueryChars, `must be at most ${maxQueryChars} characters`),
  })
  return {
    name: 'web_search',
    description:
      'Search the web. Returns a numbered list of results with title, URL, snippet and relevance score. Snippets are short: fetch a page with web_fetch when you need its full text.',
    schema,
    async run(rawArgs, context) {
      const parsed = schema.safeParse(rawArgs)
      if (!parsed.success) throw new InputError('Invalid arguments for web_search', formatIssues(parsed.error))
      const { query } = parsed.data
      const maxResults = Math.min(10, parsed.data.max_results)
      let response: SearchResponse
      try {
        response = await context.search({ query, num: maxResults })
      } catch (error) {
        if (error instanceof ConfigError) return failure('not_configured', error.message)
        if (isProviderError(error) && error.kind === 'timeout') return failure('timeout', error.message)
        throw error
      }
      const results = response.results.slice(0, maxResults)
      if (results.length === 0) {
        const kinds = Object.values(response.providers).flatMap((p) => (p.error ? [p.error.kind] : []))
        if (kinds.length === 0) {
          // A provider resting after failures is skipped without an error of its own: its circuit knows why.
          const statuses = await context.providerStatus()
          for (const s of statuses) if (s.circuit.open && s.circuit.lastError) kinds.push(s.circuit.lastError.kind)
        }
        if (kinds.length > 0) {
          const kind = friendlyKind(kinds)
          const failing = Object.entries(response.providers)
            .filter(([, p]) => p.error || p.status === 'skipped')
            .map(([name, p]) => ({ provider: name as ProviderName, kind: p.error?.kind, message: p.error?.message ?? p.reason }))
          return failure(kind, undefined, failing)
        }
      }
      const lines = results.map((r, i) =>
        [`${i + 1}. ${r.title}`, `   URL: ${r.url}`, `   ${r.snippet.replace(/\s+/g, ' ').trim()}`, `   Relevance: ${r.score === undefined ? 'n/a' : r.score.toFixed(2)}`].join('\n'),
      )
      const header = results.length ? `Search results for "${query}" (${results.length}):` : `No results for "${query}".`
      return {
        content: [header, ...lines].join('\n\n'),
        data: {
          query,
          results: results.map((r) => ({ title: r.title, url: r.url, snippet: r.snippet, score: r.score ?? null, published_date: r.published_date, sources: r.sources })),
          intent: response.intent,
          cached: response.cached,
          partial: response.partial,
        },
        isError: false,
      }
    },
  }
}

function failure(kind: keyof typeof FRIENDLY_SEARCH_ERRORS, detail: string | undefined, providers?: unknown): ToolResult {
  return {
    content: FRIENDLY_SEARCH_ERRORS[kind],
    data: { error: { kind, ...(detail !== undefined && { detail }), ...(providers !== undefined && { providers }) } },
    isError: true,
  }
}

/** A tool's listing: name, description and its arguments as JSON Schema. */
export function describeTool(tool: Tool): { name: string; description: string; parameters: Record<string, unknown> } {
  const { $schema: _drop, ...parameters } = z.toJSONSchema(tool.schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
  return { name: tool.name, description: tool.description, parameters }
}
