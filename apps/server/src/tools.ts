import type { Env, ProviderErrorKind, ProviderName } from '@search-layer/core'
import { ConfigError, InputError, formatIssues, isProviderError } from '@search-layer/core'
import type { ProviderStatus, SearchRequest, SearchResponse } from '@search-layer/engine'
import { fetchPage, isFetchError } from '@search-layer/page-fetch'
import { fetchThread } from '@search-layer/thread-fetch'
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

/** Friendly sentences for `web_fetch` and `fetch_thread` failures, by reason. */
export const FRIENDLY_FETCH_ERRORS: Record<'bad_url' | 'blocked' | 'not_found' | 'too_large' | 'unsupported_type' | 'timeout' | 'rate_limited' | 'unavailable', string> = {
  bad_url: 'That is not a URL that can be fetched: give a full http(s) address.',
  blocked: 'That address points into a private network and is refused for safety.',
  not_found: 'The page does not exist (the server answered "not found" or "gone").',
  too_large: 'The page is too large to read in full.',
  unsupported_type: 'The address does not serve a readable document (HTML, text, markdown, JSON or a feed).',
  timeout: 'The page took too long to answer. Try again later.',
  rate_limited: 'The site is rate-limiting requests right now. Wait a little and try again.',
  unavailable: 'The page could not be fetched right now (the site failed or refused the request).',
}

/** Maps a page-fetch `FetchError` or thread-fetch `ProviderError`/`InputError` to a friendly reason. */
export function fetchFailureReason(error: unknown): keyof typeof FRIENDLY_FETCH_ERRORS | undefined {
  if (error instanceof InputError) return 'bad_url'
  if (isFetchError(error)) {
    if (error.kind === 'http' && (error.status === 404 || error.status === 410)) return 'not_found'
    if (error.kind === 'http' && error.status === 429) return 'rate_limited'
    return error.kind === 'http' || error.kind === 'network' ? 'unavailable' : error.kind
  }
  if (isProviderError(error)) {
    if (error.code === 'blocked') return 'blocked'
    if (error.code === 'not_found' || error.code === 'gone' || error.status === 404 || error.status === 410) return 'not_found'
    if (error.code === 'too_large') return 'too_large'
    if (error.code === 'unsupported_type') return 'unsupported_type'
    if (error.kind === 'timeout') return 'timeout'
    if (error.kind === 'rate_limited') return 'rate_limited'
    return 'unavailable'
  }
  return undefined
}

async function friendlyFetch<T>(work: () => Promise<T>, render: (value: T) => ToolResult): Promise<ToolResult> {
  try {
    return render(await work())
  } catch (error) {
    const reason = fetchFailureReason(error)
    if (!reason) throw error
    const detail = error instanceof Error ? error.message : undefined
    return { content: FRIENDLY_FETCH_ERRORS[reason], data: { error: { kind: reason, ...(detail && { detail }) } }, isError: true }
  }
}

const clipText = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}\n\n[… cut at ${max} of ${text.length} characters]`)

/** `web_fetch`: a URL → its readable content as markdown (cut at `max_chars`). */
export function webFetchTool({ env }: { env: Env }): Tool {
  const schema = z
    .object({
      url: z.string().trim().min(1, 'must not be empty').describe('The http(s) URL to read.'),
      max_chars: z.number().int().min(200).max(200_000).default(20_000).describe('Longest text returned (default 20000).'),
    })
    .strict()
  return {
    name: 'web_fetch',
    description: 'Fetch a web page and return its readable main content as markdown. Use it to read a search result in full.',
    schema,
    async run(rawArgs, context) {
      const parsed = schema.safeParse(rawArgs)
      if (!parsed.success) throw new InputError('Invalid arguments for web_fetch', formatIssues(parsed.error))
      const { url, max_chars } = parsed.data
      return friendlyFetch(
        () => fetchPage(url, { signal: context.signal, env }),
        (page) => {
          const head = [page.title ? `# ${page.title}` : undefined, `URL: ${page.finalUrl || page.url}`, page.publishedAt ? `Published: ${page.publishedAt}` : undefined]
          return {
            content: clipText([...head.filter(Boolean), '', page.markdown].join('\n'), max_chars),
            data: { url: page.url, finalUrl: page.finalUrl, title: page.title, publishedAt: page.publishedAt, lang: page.lang, excerpt: page.excerpt, links: page.links.length },
            isError: false,
          }
        },
      )
    },
  }
}

/** `fetch_thread`: an issue/PR/HN/Reddit/V2EX/page URL → the thread with comments and typed references. */
export function fetchThreadTool({ env }: { env: Env }): Tool {
  const schema = z
    .object({
      url: z.string().trim().min(1, 'must not be empty').describe('A GitHub issue or PR, Hacker News, Reddit or V2EX thread, or any page.'),
      max_comments: z.number().int().min(0).max(1000).default(100).describe('Most comments returned (default 100).'),
      max_chars: z.number().int().min(200).max(200_000).default(30_000).describe('Longest text returned (default 30000).'),
    })
    .strict()
  return {
    name: 'fetch_thread',
    description: 'Read a whole discussion thread (GitHub issue or PR, Hacker News, Reddit, V2EX) with its comments and the issues, PRs, commits and links it references.',
    schema,
    async run(rawArgs, context) {
      const parsed = schema.safeParse(rawArgs)
      if (!parsed.success) throw new InputError('Invalid arguments for fetch_thread', formatIssues(parsed.error))
      const { url, max_comments, max_chars } = parsed.data
      return friendlyFetch(
        () => fetchThread(url, { signal: context.signal, env, maxComments: max_comments }),
        (thread) => {
          const comments = thread.comments.map((c) => `### ${c.author ?? 'unknown'}${c.createdAt ? ` (${c.createdAt})` : ''}\n${c.body}`)
          const refs = thread.refs.map((r) => `- ${r.type}: ${r.url ?? r.text}${r.title ? ` — ${r.title}` : ''}`)
          const text = [
            `# ${thread.title}`,
            `URL: ${thread.url} (${thread.type}${thread.state ? `, ${thread.state}` : ''})`,
            '',
            thread.body,
            ...(comments.length ? ['', `## Comments (${comments.length})`, '', comments.join('\n\n')] : []),
            ...(refs.length ? ['', `## References (${refs.length})`, refs.join('\n')] : []),
          ].join('\n')
          return { content: clipText(text, max_chars), data: thread, isError: false }
        },
      )
    },
  }
}
