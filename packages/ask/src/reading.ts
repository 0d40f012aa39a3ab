import type { Env, ProviderName } from '@search-layer/core'
import type { SearchLayer } from '@search-layer/engine'
import { readEvidence } from '@search-layer/evidence'
import { fetchPage } from '@search-layer/page-fetch'
import { type Passage, findPassages } from '@search-layer/passages'
import { fetchThread } from '@search-layer/thread-fetch'

/** What the reading tools share: the layer, where keys live, the question the passages must answer. */
export interface ReadingContext {
  layer: SearchLayer
  env: Env
  question: string
  /** Pages each search reads. */
  readPages: number
  sources?: readonly ProviderName[]
}

/** One search result as the ask keeps it. */
interface FoundResult {
  title: string
  url: string
  snippet: string
  publishedAt: string | null
}

/** What a search with reading found: its results, the passages of the pages read, and each read's outcome. */
export interface SearchRead {
  query: string
  /** The intent the engine classified the query as (`null` when none applied). */
  intent: string | null
  results: FoundResult[]
  passages: Passage[]
  reads: { url: string; ok: boolean; error?: string }[]
}

const SEARCH_RESULTS = 5
const SEARCH_DEADLINE_MS = 15_000
const READ_DEADLINE_MS = 15_000
const PAGE_TIMEOUT_MS = 10_000
const SEARCH_PASSAGE_TOKENS = 1_500
const PAGE_PASSAGE_TOKENS = 1_200

/**
 * Searches, then reads the top `readPages` results (`@search-layer/evidence`: parallel, per-host limits, one
 * deadline) and returns the results and the passages that best match the query and the question.
 */
export async function searchAndRead(ctx: ReadingContext, query: string, signal?: AbortSignal): Promise<SearchRead> {
  const response = await ctx.layer.search(
    { query, num: SEARCH_RESULTS, deadlineMs: SEARCH_DEADLINE_MS, ...(ctx.sources && { sources: [...ctx.sources] }) },
    signal ? { signal } : {},
  )
  const results = response.results.slice(0, SEARCH_RESULTS).map((r) => ({
    title: r.title,
    url: r.url,
    snippet: r.snippet,
    publishedAt: r.published_date,
  }))
  const evidence = await readEvidence(
    {
      query: query.slice(0, 2_000),
      subQueries: query === ctx.question ? [] : [ctx.question],
      results: response.results.map((r) => ({
        url: r.url,
        title: r.title,
        ...(r.score !== undefined && { score: r.score }),
      })),
    },
    {
      pages: ctx.readPages,
      budgetTokens: SEARCH_PASSAGE_TOKENS,
      timeoutMs: PAGE_TIMEOUT_MS,
      deadline: Date.now() + READ_DEADLINE_MS,
      pageFetch: { env: ctx.env as Record<string, string | undefined> },
      ...(signal && { signal }),
    },
  )
  const reads = evidence.reads.map((r) => ({
    url: r.url,
    ok: r.status === 'ok',
    ...(r.status !== 'ok' && { error: `${r.kind ?? r.status}${r.message ? `: ${r.message}` : ''}` }),
  }))
  return { query, intent: response.intent, results, passages: evidence.passages, reads }
}

/** Reads one page and returns its passages that best answer the question. */
export async function readPage(
  ctx: ReadingContext,
  url: string,
  signal?: AbortSignal,
): Promise<{ title: string; url: string; passages: Passage[] }> {
  const page = await readMarkdown(ctx, url, signal)
  const passages = await findPassages(
    {
      query: ctx.question.slice(0, 1_000),
      pages: [{ url, title: page.title, markdown: page.markdown, resultRank: 1, resultScore: 1 }],
    },
    { budgetTokens: PAGE_PASSAGE_TOKENS, maxPassages: 6 },
  )
  return { title: page.title, url: page.url, passages }
}

/** Reads a whole thread (issue, PR, HN, Reddit, V2EX) and returns its passages that best answer the question. */
export async function readThread(
  ctx: ReadingContext,
  url: string,
  signal?: AbortSignal,
): Promise<{ title: string; url: string; comments: number; passages: Passage[] }> {
  const thread = await fetchThread(url, {
    env: ctx.env,
    deadlineMs: 20_000,
    maxComments: 200,
    ...(signal && { signal }),
  })
  if (thread.error) throw new Error(thread.error.message)
  const markdown = [
    thread.body.trim(),
    ...thread.comments.map(
      (c) => `## ${c.author ?? 'someone'}${c.createdAt ? ` · ${c.createdAt.slice(0, 10)}` : ''}\n\n${c.body.trim()}`,
    ),
  ].join('\n\n')
  const title = thread.title || thread.url
  const passages = await findPassages(
    {
      query: ctx.question.slice(0, 1_000),
      pages: [{ url: thread.url, title, markdown, resultRank: 1, resultScore: 1 }],
    },
    { budgetTokens: PAGE_PASSAGE_TOKENS, maxPassages: 6 },
  )
  return { title, url: thread.url, comments: thread.comments.length, passages }
}

async function readMarkdown(
  ctx: ReadingContext,
  url: string,
  signal?: AbortSignal,
): Promise<{ title: string; url: string; markdown: string }> {
  const page = await fetchPage(url, {
    env: ctx.env as Record<string, string | undefined>,
    timeoutMs: PAGE_TIMEOUT_MS,
    ...(signal && { signal }),
  })
  return { title: page.title ?? page.finalUrl, url: page.finalUrl, markdown: page.markdown }
}

/** A one-line reason from anything thrown. */
export function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.replace(/\s+/g, ' ').slice(0, 300)
}
