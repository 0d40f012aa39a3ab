import { isFetchError, type FetchErrorKind } from '@search-layer/page-fetch'
import { redactSecrets } from '@search-layer/core'
import { type CachedPage, type PageCache, cachedPage, keepPage } from './_page-cache.js'
import type { ReadReport } from './schema.js'

/** What reading needs of a fetched page. page-fetch's `ReadablePage` fits. */
export interface FetchedPage {
  title: string | null
  markdown: string
  /** Set when the page was read as plain text; says why. */
  degraded?: string
}

/**
 * Fetches one page: page-fetch's `fetchPage` by default. It must end by `timeoutMs` and when `signal` aborts, and
 * reject with page-fetch's `FetchError` to have its kind reported (anything else is `failed`).
 */
export type FetchPageLike = (url: string, options: { timeoutMs: number; signal: AbortSignal }) => Promise<FetchedPage>

/** One page to read. */
export interface PageTask {
  url: string
  resultRank: number
  /** Pages of one host are read at most `perHost` at a time. */
  host: string
}

export interface ReadPagesOptions {
  fetch: FetchPageLike
  /** Time allowed for each page. */
  timeoutMs: number
  /** Epoch ms past which nothing is waited for. */
  deadline: number
  signal?: AbortSignal
  perHost: number
  cache?: PageCache
  cacheTtlMs: number
  now: () => number
}

/** Fewer letters and digits than this is no text to find evidence in. */
const MIN_TEXT_CHARS = 40
/** A page with less time than this left before the deadline is not started: it could not be read in time. */
const MIN_READ_MS = 100
// setTimeout's range: a later deadline is no deadline.
const MAX_TIMER_MS = 2_147_483_647

interface Slot {
  task: PageTask
  startedAt?: number
  report?: ReadReport
  page?: CachedPage
}

/**
 * Reads the pages in parallel, at most `perHost` at once per host, and returns a report for each (in task order)
 * and the pages read. Returns at the deadline or when `signal` aborts, whatever is still on its way: a page being
 * read is then `failed`/`timeout`, a page not started `skipped`/`deadline` (or `cancelled`), and the fetches still
 * running are aborted.
 */
export async function readPages(
  tasks: readonly PageTask[],
  options: ReadPagesOptions,
): Promise<{ reports: ReadReport[]; pages: Map<PageTask, CachedPage> }> {
  const slots: Slot[] = tasks.map((task) => ({ task }))
  const stop = new AbortController()
  const ended = endOf(options)
  try {
    const queues = new Map<string, Slot[]>()
    for (const slot of slots) queues.set(slot.task.host, [...(queues.get(slot.task.host) ?? []), slot])
    const workers = [...queues.values()].flatMap((queue) =>
      Array.from({ length: Math.min(options.perHost, queue.length) }, () => drain(queue, options, stop.signal)),
    )
    if (!options.signal?.aborted) await Promise.race([Promise.all(workers), ended.promise])
  } finally {
    ended.clear()
    stop.abort()
  }
  const cancelled = options.signal?.aborted === true
  const reports = slots.map((slot) => slot.report ?? unfinished(slot, cancelled, options.now()))
  const pages = new Map(slots.filter((s) => s.page).map((s) => [s.task, s.page!]))
  return { reports, pages }
}

/** Resolves at the deadline or when the caller's signal aborts. */
function endOf({ deadline, signal, now }: ReadPagesOptions) {
  let timer: NodeJS.Timeout | undefined
  let onAbort: (() => void) | undefined
  const promise = new Promise<void>((resolve) => {
    const left = deadline - now()
    if (left <= MAX_TIMER_MS) timer = setTimeout(resolve, Math.max(0, left))
    onAbort = () => resolve()
    signal?.addEventListener('abort', onAbort, { once: true })
  })
  return {
    promise,
    clear() {
      clearTimeout(timer)
      if (onAbort) signal?.removeEventListener('abort', onAbort)
    },
  }
}

async function drain(queue: Slot[], options: ReadPagesOptions, stop: AbortSignal): Promise<void> {
  while (queue.length > 0 && !stop.aborted && options.deadline - options.now() >= MIN_READ_MS)
    await readOne(queue.shift()!, options, stop)
}

async function readOne(slot: Slot, options: ReadPagesOptions, stop: AbortSignal): Promise<void> {
  const { task } = slot
  const startedAt = options.now()
  slot.startedAt = startedAt
  const hit = options.cache && (await cachedPage(options.cache, task.url))
  if (stop.aborted) return
  if (hit) {
    finish(slot, hit, options.now() - startedAt, true)
    return
  }
  const timeoutMs = Math.max(1, Math.min(options.timeoutMs, options.deadline - startedAt))
  try {
    const page = await options.fetch(task.url, { timeoutMs, signal: stop })
    if (stop.aborted) return
    const kept: CachedPage = {
      title: page.title,
      markdown: page.markdown,
      ...(page.degraded && { degraded: page.degraded }),
    }
    if (finish(slot, kept, options.now() - startedAt, false) && options.cache)
      keepPage(options.cache, task.url, kept, options.cacheTtlMs)
  } catch (error) {
    if (stop.aborted) return
    slot.report = failure(task, error, options.now() - startedAt)
  }
}

/** Reports a page that arrived; a page without text is `failed`/`empty`. True when it was read. */
function finish(slot: Slot, page: CachedPage, ms: number, cached: boolean): boolean {
  const { url, resultRank } = slot.task
  const base = { url, resultRank, ms, ...(cached && { cached: true as const }) }
  if (!hasText(page.markdown)) {
    slot.report = {
      ...base,
      status: 'failed',
      kind: 'empty',
      message: `no readable text (fewer than ${MIN_TEXT_CHARS} letters or digits)`,
      chars: 0,
    }
    return false
  }
  slot.page = page
  slot.report = {
    ...base,
    status: 'ok',
    kind: page.degraded ? 'degraded' : 'ok',
    ...(page.degraded && { message: page.degraded }),
    chars: page.markdown.length,
  }
  return true
}

function failure({ url, resultRank }: PageTask, error: unknown, ms: number): ReadReport {
  const kind: FetchErrorKind | 'failed' = isFetchError(error) ? error.kind : 'failed'
  const raw = error instanceof Error ? error.message : String(error)
  return { url, resultRank, status: 'failed', kind, message: redactSecrets(raw).slice(0, 500), ms, chars: 0 }
}

/** The report of a page still on its way, or not started, when reading ended. */
function unfinished({ task, startedAt }: Slot, cancelled: boolean, now: number): ReadReport {
  const { url, resultRank } = task
  if (startedAt !== undefined)
    return {
      url,
      resultRank,
      status: 'failed',
      kind: 'timeout',
      message: cancelled ? 'cancelled while it was being read' : 'still arriving at the deadline',
      ms: now - startedAt,
      chars: 0,
    }
  return cancelled
    ? {
        url,
        resultRank,
        status: 'skipped',
        kind: 'cancelled',
        message: 'cancelled before it was read',
        ms: 0,
        chars: 0,
      }
    : {
        url,
        resultRank,
        status: 'skipped',
        kind: 'deadline',
        message: 'not started before the deadline',
        ms: 0,
        chars: 0,
      }
}

/** At least `MIN_TEXT_CHARS` letters or digits; stops counting there. */
function hasText(markdown: string): boolean {
  let count = 0
  for (const _ of markdown.matchAll(/[\p{L}\p{N}]/gu)) if (++count >= MIN_TEXT_CHARS) return true
  return false
}
