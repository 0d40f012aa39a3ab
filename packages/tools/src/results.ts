import { InputError, type ProviderName, isProviderError } from '@search-layer/core'
import type { ServiceSpec } from '@search-layer/core/config'
import type { SearchLayer, SearchResponse } from '@search-layer/engine'
import { type ReadablePage, isFetchError } from '@search-layer/page-fetch'
import { synthesize, toText } from '@search-layer/synthesis'
import type { Thread, UrlRefs } from '@search-layer/thread-fetch'
import { describeFetchFailure, describeProviderFailure } from './_errors.js'
import { evidenceText } from './_evidence-text.js'
import { fitText, oneLine } from './_text.js'
import { untrustedFrame } from './_untrusted.js'
import type { ExtractRefsData, FetchThreadData, WebFetchData, WebSearchData } from './output-schemas.js'

// What each tool's outcome reads like to a model: text within `maxChars`, untrusted text framed, the structured data
// beside it, and failures as sentences someone can act on.

/** Default size of a tool result's `content` (characters): about 3-4k tokens, far below the common 25k-token tool-result caps. */
export const DEFAULT_MAX_CHARS = 12_000

/** What every tool returns: text sized for the model, the structured data beside it, and whether it failed. */
export interface ToolResult {
  /** Text for the model, at most `maxChars` characters. */
  content: string
  /** The structured result (or `{error: {kind, message}}`). */
  data: unknown
  /** True when the call failed; `content` then says why in one or two sentences. */
  isError?: boolean
}

/** A failure as an `isError` result: a sentence for the model, `{error: {kind, message}}` for programs. */
export function errorResult(error: unknown): ToolResult {
  const { kind, message } = describeError(error)
  return { content: message, data: { error: { kind, message } }, isError: true }
}

function describeError(error: unknown): { kind: string; message: string } {
  if (error instanceof InputError) {
    return { kind: 'input', message: `${sentence(oneLine(error.message, 400))} Fix the arguments and call again.` }
  }
  if (isProviderError(error)) {
    // A 4xx the upstream answered on purpose (not found, gone, forbidden) is about the request, not an outage.
    if (error.kind === 'upstream' && error.status !== undefined && error.status < 500)
      return {
        kind: error.kind,
        message: `${sentence(oneLine(error.message, 300))} Check the URL; retrying will not help.`,
      }
    const friendly = describeProviderFailure(error.kind, error.provider, error.retryAfterMs)
    return { kind: error.kind, message: `${friendly} (${oneLine(error.message, 300)})` }
  }
  if (isFetchError(error)) {
    const detail = oneLine(error.message, 300)
    return { kind: error.kind, message: `${describeFetchFailure(error.kind, error.status)} (${detail})` }
  }
  if (error instanceof Error && error.name === 'ConfigError')
    return { kind: 'config', message: `Not configured: ${oneLine(error.message, 400)}` }
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))
    return {
      kind: 'timeout',
      message: 'The call was cancelled or ran out of time before it finished. Try again, or ask for less.',
    }
  const detail = error instanceof Error ? error.message : String(error)
  return { kind: 'internal', message: `The tool failed unexpectedly: ${oneLine(detail, 300)}` }
}

export const sentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`)

function engineLine(response: SearchResponse, services: readonly ServiceSpec[]): string {
  const parts: string[] = []
  for (const [name, report] of Object.entries(response.providers) as [
    ProviderName,
    SearchResponse['providers'][ProviderName],
  ][]) {
    if (report.status === 'ok') parts.push(`${name} ${report.results}`)
    else if (report.status === 'error' && report.error)
      parts.push(
        `${name} failed: ${describeProviderFailure(report.error.kind, name, undefined, report.error.message, services)}`,
      )
  }
  return parts.length > 0 ? `Engines: ${parts.join(' · ')}` : ''
}

// When several engines fail differently, the failure someone must act on (a key, a quota) names the whole error.
const KIND_PRIORITY: readonly string[] = [
  'auth',
  'quota',
  'rate_limited',
  'timeout',
  'network',
  'upstream',
  'bad_request',
  'bad_response',
  'config',
]

const worstKind = (kinds: readonly string[]): string =>
  KIND_PRIORITY.find((k) => kinds.includes(k)) ?? kinds[0] ?? 'upstream'

/**
 * Engines that were skipped because their circuit is open after repeated failures, with the kind of their last
 * failure: a search where every engine is resting has no error of its own, yet "no results" would mislead.
 */
export async function restingKinds(layer: SearchLayer, response: SearchResponse): Promise<[ProviderName, string][]> {
  const reports = Object.values(response.providers)
  if (response.results.length > 0 || reports.some((r) => r.status === 'ok' || r.status === 'error')) return []
  if (!reports.some((r) => r.status === 'skipped')) return []
  try {
    const statuses = await layer.status()
    return statuses.flatMap((s) =>
      s.configured && s.circuit.open && s.circuit.lastError
        ? [[s.name, s.circuit.lastError.kind] as [ProviderName, string]]
        : [],
    )
  } catch {
    return []
  }
}

/** A fetched page for the model: title and source, then the page's text framed as untrusted, within `maxChars`. */
export function pageResult(page: ReadablePage, maxChars: number): ToolResult {
  const head = [
    `# ${page.title ?? page.finalUrl}`,
    [
      `Source: ${page.finalUrl}`,
      page.siteName,
      page.byline,
      page.publishedAt && `published ${page.publishedAt.slice(0, 10)}`,
    ]
      .filter(Boolean)
      .join(' · '),
  ].join('\n')
  const frame = untrustedFrame('the fetched page', page.degraded && `Shown as plain text: ${page.degraded}.`)
  const body = fitText(page.markdown, Math.max(200, maxChars - head.length - frame.length - 2))
  const data: WebFetchData = {
    url: page.url,
    finalUrl: page.finalUrl,
    title: page.title,
    byline: page.byline,
    siteName: page.siteName,
    lang: page.lang,
    publishedAt: page.publishedAt,
    excerpt: page.excerpt,
    readerable: page.readerable,
    ...(page.degraded && { degraded: page.degraded }),
    markdown: body.text,
    truncated: body.truncated,
    totalChars: page.markdown.length,
    links: page.links.slice(0, 50),
  }
  return { content: `${head}\n\n${frame.open}${body.text}${frame.close}`, data }
}

export function searchResult(
  response: SearchResponse,
  maxResults: number,
  maxChars: number,
  resting: [ProviderName, string][] = [],
  services: readonly ServiceSpec[] = [],
): ToolResult {
  const reports = Object.entries(response.providers) as [ProviderName, SearchResponse['providers'][ProviderName]][]
  const failed = reports.filter(([, r]) => r.status === 'error')
  const ok = reports.filter(([, r]) => r.status === 'ok')
  const results = response.results.slice(0, maxResults)
  const data: WebSearchData = {
    query: response.query,
    queries: response.queries,
    intent: response.intent,
    mode: response.mode,
    answer: response.answer ?? null,
    results,
    providers: response.providers,
    partial: response.partial,
    cached: response.cached,
    warnings: response.warnings,
    ...(response.keyless_only && { keyless_only: response.keyless_only }),
    ...(response.reads && { reads: response.reads, passages: response.passages ?? [] }),
  }
  if (results.length === 0 && ok.length === 0 && failed.length > 0) {
    const kinds = failed.map(([, r]) => r.error?.kind ?? 'upstream')
    const why = failed
      .map(([name, r]) =>
        describeProviderFailure(r.error?.kind ?? 'upstream', name, undefined, r.error?.message, services),
      )
      .join(' ')
    const message = `The search failed: every engine it tried failed. ${why}`
    return { content: message, data: { ...data, error: { kind: worstKind(kinds), message } }, isError: true }
  }
  if (results.length === 0 && ok.length === 0 && resting.length > 0) {
    const why = resting
      .map(([name, kind]) => describeProviderFailure(kind, name, undefined, undefined, services))
      .join(' ')
    const message = `The search failed: every engine is resting after repeated failures. ${why}`
    return {
      content: message,
      data: { ...data, error: { kind: worstKind(resting.map(([, kind]) => kind)), message } },
      isError: true,
    }
  }
  const notes = [...response.warnings, ...(response.keyless_only ? [response.keyless_only.message] : [])]
  const footer = [engineLine(response, services), ...notes.map((w) => `Note: ${oneLine(w, 200)}`)]
    .filter(Boolean)
    .join('\n')
  const room = Math.max(200, maxChars - footer.length - 2)
  // Read pages' passages take at most half of the room, inside their untrusted-content frame.
  const evidence = evidenceText(response, Math.floor(room / 2))
  const budget = Math.max(200, room - (evidence ? evidence.length + 2 : 0))
  const text =
    results.length === 0
      ? `No results for ${JSON.stringify(response.query)}. Try other words, a wider freshness window or fewer domain filters.`
      : toText(
          synthesize(
            {
              query: response.query,
              results,
              answer: response.answer ?? null,
              answer_source: response.answer_source,
              intent: response.intent,
            },
            { maxChars: budget },
          ),
        )
  const body = evidence ? `${text.trimEnd()}\n\n${evidence}` : text
  return { content: footer ? `${body}\n\n${footer}` : body, data }
}

export function threadResult(thread: Thread, maxChars: number): ToolResult {
  const meta = [
    thread.type.replace('_', ' '),
    thread.state,
    thread.labels.length > 0 && `labels: ${thread.labels.join(', ')}`,
    `${thread.comments.length} comments`,
    `${thread.refs.length} references`,
  ]
    .filter(Boolean)
    .join(' · ')
  const refs = thread.refs
    .slice(0, 40)
    .map(
      (r) =>
        `- ${r.type}: ${r.url ?? r.text}${r.title ? ` — ${oneLine(r.title, 100)}` : ''}${r.count > 1 ? ` (×${r.count})` : ''}`,
    )
  const refBlock =
    refs.length > 0
      ? `\n\n## References\n${refs.join('\n')}${thread.refs.length > refs.length ? `\n- … ${thread.refs.length - refs.length} more` : ''}`
      : ''
  // References are the point of this tool, so they keep their room and the comments give way first.
  const refText = fitText(refBlock, Math.floor(maxChars / 3))
  const comments = thread.comments.map(
    (c) =>
      `### ${c.author ?? 'someone'}${c.createdAt ? ` · ${c.createdAt.slice(0, 10)}` : ''}${c.kind !== 'comment' ? ` · ${c.kind.replace('_', ' ')}` : ''}\n${c.body.trim()}`,
  )
  // Everything past the head line is written by third parties (the thread's posters, the linked issues' authors).
  const head = `# ${oneLine(thread.title || thread.url, 200)}\n${thread.url}\n${meta}`
  const frame = untrustedFrame('the thread: its posts, comments and the titles of what it references')
  const main = `${thread.body.trim()}${comments.length > 0 ? `\n\n## Comments\n\n${comments.join('\n\n')}` : ''}`
  const body = fitText(main, Math.max(200, maxChars - head.length - 2 - frame.length - refText.text.length))
  const data: FetchThreadData = {
    url: thread.url,
    type: thread.type,
    title: thread.title,
    state: thread.state,
    labels: thread.labels,
    commentCount: thread.comments.length,
    refs: thread.refs,
    metadata: thread.metadata,
    truncated: body.truncated || refText.truncated,
    ...(thread.error && { error: thread.error }),
  }
  return { content: `${head}\n\n${frame.open}${body.text}${refText.text}${frame.close}`, data }
}

export function refsResult(list: UrlRefs[], maxChars: number): ToolResult {
  const sections = list.map((entry) => {
    const head = `## ${entry.title ? `${oneLine(entry.title, 120)} — ` : ''}${entry.url}`
    if (entry.error) return `${head}\nCould not read it: ${sentence(oneLine(entry.error.message, 300))}`
    if (entry.refs.length === 0) return `${head}\nNo references found.`
    return `${head}\n${entry.refs.map((r) => `- ${r.type}: ${r.url ?? r.text}${r.title ? ` — ${oneLine(r.title, 100)}` : ''}`).join('\n')}`
  })
  // Titles and reference texts come from the pages read; the frame keeps them data.
  const frame = untrustedFrame('the threads and pages read: their titles and references')
  const fitted = fitText(sections.join('\n\n'), Math.max(200, maxChars - frame.length))
  const failed = list.filter((e) => e.error)
  return {
    content: `${frame.open}${fitted.text}${frame.close}`,
    data: { results: list, truncated: fitted.truncated } satisfies ExtractRefsData,
    ...(failed.length === list.length && list.length > 0 && { isError: true }),
  }
}
