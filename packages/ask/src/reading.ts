import type { Env, ProviderName } from '@search-layer/core'
import type { CacheStore, SearchLayer } from '@search-layer/engine'
import { type FetchPageLike, readEvidence } from '@search-layer/evidence'
import { fetchPage } from '@search-layer/page-fetch'
import { type Passage, findPassages } from '@search-layer/passages'
import { fetchThread } from '@search-layer/thread-fetch'
import { z } from 'zod'

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
// The engine keeps min(page timeout, a quarter of the deadline) of it for reading, and reading may use whatever the
// engines leave of the rest.
const SEARCH_DEADLINE_MS = 20_000
const PAGE_TIMEOUT_MS = 10_000
const SEARCH_PASSAGE_TOKENS = 1_500
const PAGE_PASSAGE_TOKENS = 1_200
// Discussions move faster than pages: a thread read is kept for less time than a page (an hour).
const THREAD_TTL_MS = 10 * 60_000

/**
 * Searches with the engine's reading: the top `readPages` results are read (parallel, per-host limits, within the
 * search's deadline, through the layer's page cache) and their passages ranked against the query and the question,
 * so an agent's terse query still brings back what answers the user.
 */
export async function searchAndRead(ctx: ReadingContext, query: string, signal?: AbortSignal): Promise<SearchRead> {
  const read = { pages: ctx.readPages, budgetTokens: SEARCH_PASSAGE_TOKENS, timeoutMs: PAGE_TIMEOUT_MS }
  const response = await ctx.layer.search(
    {
      query,
      num: SEARCH_RESULTS,
      deadlineMs: SEARCH_DEADLINE_MS,
      ...(ctx.sources && { sources: [...ctx.sources] }),
      ...(ctx.readPages > 0 && { read: { ...read, question: ctx.question } }),
    },
    signal ? { signal } : {},
  )
  const results = response.results.slice(0, SEARCH_RESULTS).map((r) => ({
    title: r.title,
    url: r.url,
    snippet: r.snippet,
    publishedAt: r.published_date,
  }))
  const reads = (response.reads ?? []).map((r) => ({
    url: r.url,
    ok: r.status === 'ok',
    ...(r.status !== 'ok' && { error: `${r.kind}${r.message ? `: ${r.message}` : ''}` }),
  }))
  return { query, intent: response.intent, results, passages: response.passages ?? [], reads }
}

/**
 * Reads one page through the layer's page cache (`page:v1:<url>`, where the engine's reading keeps the pages a
 * search read) and returns its passages that best answer the question, and the address it ended at when fetched.
 */
export async function readPage(
  ctx: ReadingContext,
  url: string,
  signal?: AbortSignal,
): Promise<{ url: string; passages: Passage[] }> {
  let address = url
  const fetch: FetchPageLike = async (target, options) => {
    const page = await fetchPage(target, { env: ctx.env as Record<string, string | undefined>, ...options })
    address = page.finalUrl
    return page
  }
  const cache = ctx.layer.cache
  const evidence = await readEvidence(
    { query: ctx.question.slice(0, 1_000), results: [{ url, title: '' }] },
    {
      pages: 1,
      budgetTokens: PAGE_PASSAGE_TOKENS,
      timeoutMs: PAGE_TIMEOUT_MS,
      fetch,
      ...(cache && { cache }),
      ...(signal && { signal }),
    },
  )
  const report = evidence.reads[0]
  if (report?.status !== 'ok') throw new Error(report?.message ?? 'the page was not read')
  return { url: address, passages: evidence.passages }
}

/** A thread as the ask reads it, and as the layer's cache keeps it (`thread:v1:<url>`). */
const ThreadTextSchema = z.object({
  url: z.string(),
  title: z.string(),
  markdown: z.string(),
  comments: z.number().int().nonnegative(),
})
type ThreadText = z.infer<typeof ThreadTextSchema>

/** Reads a whole thread (issue, PR, HN, Reddit, V2EX) and returns its passages that best answer the question. */
export async function readThread(
  ctx: ReadingContext,
  url: string,
  signal?: AbortSignal,
): Promise<{ title: string; url: string; comments: number; passages: Passage[] }> {
  const thread = await threadText(ctx, url, signal)
  const passages = await findPassages(
    {
      query: ctx.question.slice(0, 1_000),
      pages: [{ url: thread.url, title: thread.title, markdown: thread.markdown, resultRank: 1, resultScore: 1 }],
    },
    { budgetTokens: PAGE_PASSAGE_TOKENS, maxPassages: 6 },
  )
  return { title: thread.title, url: thread.url, comments: thread.comments, passages }
}

/** The thread's posts and comments as markdown: from the layer's cache when it holds them, else fetched and kept. */
async function threadText(ctx: ReadingContext, url: string, signal?: AbortSignal): Promise<ThreadText> {
  const cache = ctx.layer.cache
  const hit = cache && (await cachedThread(cache, url))
  if (hit) return hit
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
  const text = { url: thread.url, title: thread.title || thread.url, markdown, comments: thread.comments.length }
  // A store that fails makes the next read slower, not this one wrong.
  cache?.set(threadCacheKey(url), text, THREAD_TTL_MS).catch(() => undefined)
  return text
}

const threadCacheKey = (url: string) => `thread:v1:${url}`

/** The cached thread, or undefined for a miss, an entry of another shape, or a store that fails. */
async function cachedThread(cache: CacheStore, url: string): Promise<ThreadText | undefined> {
  try {
    const parsed = ThreadTextSchema.safeParse(await cache.get(threadCacheKey(url)))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/** A one-line reason from anything thrown. */
export function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.replace(/\s+/g, ' ').slice(0, 300)
}
