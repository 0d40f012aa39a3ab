import { type Env, parseInput } from '@search-layer/core'
import { timeoutSignal } from '@search-layer/core/http'
import {
  type SearchLayer,
  type SearchProgress,
  type SearchRequest,
  type SearchResponse,
  createSearchLayer,
} from '@search-layer/engine'
import { fetchPage } from '@search-layer/page-fetch'
import { extractRefsFromUrls, fetchThread } from '@search-layer/thread-fetch'
import { answerResult, loadAsk } from './_answer.js'
import { oneLine } from './_text.js'
import { dropNulls } from './json-schema.js'
import {
  DEFAULT_MAX_CHARS,
  type ToolResult,
  errorResult,
  pageResult,
  refsResult,
  restingKinds,
  searchResult,
  sentence,
  threadResult,
} from './results.js'
import {
  AnswerInputSchema,
  ExtractRefsInputSchema,
  FetchThreadInputSchema,
  type ToolSetName,
  WebFetchInputSchema,
  WebSearchInputSchema,
} from './schemas.js'

/** Options of `createToolExecutors`. */
export interface ToolExecutorOptions {
  /** The search layer to use; default `createSearchLayer({ env })`, created once per executor set. */
  layer?: SearchLayer
  /** Where keys and base URLs are read; default `process.env`. */
  env?: Env
  /** Largest `content` (characters). Default `DEFAULT_MAX_CHARS`. */
  maxChars?: number
  /** Cancels every call made through these executors. */
  signal?: AbortSignal
  /** Overall deadline of one `web_search` (ms): what arrived by then is returned. Default 15 000. */
  searchDeadlineMs?: number
  /** Deadline of one `web_fetch`, `fetch_thread` or `extract_refs` call (ms). Default 30 000. */
  fetchDeadlineMs?: number
  /** Where `answer` keeps its conversations; default `SEARCH_LAYER_HISTORY_DIR`, else the user's history directory. */
  historyDir?: string
}

/** Per-call options: a cancel signal and, for `web_search`, the engine's progress events. */
export interface ToolCallOptions {
  signal?: AbortSignal
  onProgress?: (event: SearchProgress) => void
}

/** One executor per tool (and `answer`); each validates its own arguments and never throws. */
export type ToolExecutors = Record<ToolSetName, (args: unknown, options?: ToolCallOptions) => Promise<ToolResult>>

/**
 * Creates the executors of the four tools (`web_search`, `web_fetch`, `fetch_thread`, `extract_refs`) and of
 * `answer` (the ask, loaded on its first call). Each parses its arguments
 * with the tool's zod schema (a model's `null` counts as absent) and resolves to a `ToolResult`; failures, including
 * invalid arguments, become `isError` results with a readable sentence, never a thrown error.
 */
export function createToolExecutors(options: ToolExecutorOptions = {}): ToolExecutors {
  const env = options.env ?? process.env
  const maxChars = Math.max(500, Math.floor(options.maxChars ?? DEFAULT_MAX_CHARS))
  const searchDeadlineMs = options.searchDeadlineMs ?? 15_000
  const fetchDeadlineMs = options.fetchDeadlineMs ?? 30_000
  let layer = options.layer
  const getLayer = (): SearchLayer => {
    layer ??= createSearchLayer({ env })
    return layer
  }
  const signalFor = (call: ToolCallOptions | undefined, deadlineMs?: number): AbortSignal | undefined => {
    if (deadlineMs !== undefined) return timeoutSignal(deadlineMs, options.signal, call?.signal)
    const signals = [options.signal, call?.signal].filter((s): s is AbortSignal => s !== undefined)
    return signals.length <= 1 ? signals[0] : AbortSignal.any(signals)
  }

  return {
    web_search: (args, call) =>
      guarded(async () => {
        const input = parseInput(WebSearchInputSchema, dropNulls(args), 'web_search arguments')
        const queries = [...new Set([...(input.query ? [input.query] : []), ...(input.queries ?? [])])]
        const request: SearchRequest = {
          ...(queries.length === 1 ? { query: queries[0] } : { queries }),
          ...(input.intent && { intent: input.intent }),
          ...(input.freshness && { freshness: input.freshness }),
          num: input.max_results,
          ...(input.include_domains && { includeDomains: input.include_domains }),
          ...(input.exclude_domains && { excludeDomains: input.exclude_domains }),
          ...(input.sources && { sources: input.sources }),
          ...(input.read && { read: input.read }),
          ...(input.wait && { wait: input.wait }),
          ...(input.patience_ms !== undefined && { patienceMs: input.patience_ms }),
          deadlineMs: searchDeadlineMs,
        }
        const signal = signalFor(call)
        const searchLayer = getLayer()
        let response: SearchResponse
        try {
          response = await searchLayer.search(request, {
            ...(signal && { signal }),
            ...(call?.onProgress && { onProgress: call.onProgress }),
          })
        } catch (error) {
          if (error instanceof Error && error.name === 'ConfigError') {
            const message = `Web search is not available: ${sentence(oneLine(error.message, 400))}`
            return { content: message, data: { error: { kind: 'config', message } }, isError: true }
          }
          throw error
        }
        return searchResult(
          response,
          input.max_results,
          maxChars,
          await restingKinds(searchLayer, response),
          searchLayer.providers,
        )
      }),

    web_fetch: (args, call) =>
      guarded(async () => {
        const input = parseInput(WebFetchInputSchema, dropNulls(args), 'web_fetch arguments')
        const signal = signalFor(call, fetchDeadlineMs)
        const page = await fetchPage(input.url, {
          ...(signal && { signal }),
          env: env as Record<string, string | undefined>,
        })
        return pageResult(page, maxChars)
      }),

    fetch_thread: (args, call) =>
      guarded(async () => {
        const input = parseInput(FetchThreadInputSchema, dropNulls(args), 'fetch_thread arguments')
        const signal = signalFor(call)
        const thread = await fetchThread(input.url, {
          env,
          deadlineMs: fetchDeadlineMs,
          ...(signal && { signal }),
          ...(input.max_comments !== undefined && { maxComments: input.max_comments }),
        })
        return threadResult(thread, maxChars)
      }),

    extract_refs: (args, call) =>
      guarded(async () => {
        const input = parseInput(ExtractRefsInputSchema, dropNulls(args), 'extract_refs arguments')
        const signal = signalFor(call)
        const list = await extractRefsFromUrls(input.urls, {
          env,
          deadlineMs: fetchDeadlineMs,
          ...(signal && { signal }),
        })
        return refsResult(list, maxChars)
      }),

    answer: (args, call) =>
      guarded(async () => {
        const input = parseInput(AnswerInputSchema, dropNulls(args), 'answer arguments')
        const signal = signalFor(call)
        const { ask, renderTurn } = await loadAsk()
        const result = await ask(
          { question: input.question, ...(input.conversation_id && { conversationId: input.conversation_id }) },
          {
            env,
            layer: getLayer(),
            ...(signal && { signal }),
            ...(options.historyDir && { historyDir: options.historyDir }),
          },
        )
        return answerResult(result, renderTurn, maxChars)
      }),
  }
}

async function guarded(run: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await run()
  } catch (error) {
    return errorResult(error)
  }
}
