import { InputError, type ProviderName, isProviderError, redactSecrets } from '@search-layer/core'
import type { ServiceSpec } from '@search-layer/core/config'
import type { SearchLayer, SearchResponse } from '@search-layer/engine'
import { type ReadablePage, isFetchError } from '@search-layer/page-fetch'
import { synthesize, toText } from '@search-layer/synthesis'
import type { Thread, UrlRefs } from '@search-layer/thread-fetch'
import { describeFetchFailure, describeProviderFailure, describeRefusal } from './_errors.js'
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
  const { kind, message, detail } = describeError(error)
  if (!detail) return { content: message, data: { error: { kind, message } }, isError: true }
  // The service's own message may quote what a site or vendor sent: the model reads it framed, after our sentence.
  const frame = untrustedFrame("the service's error message (it may quote what the site or vendor sent)")
  return {
    content: `${message}\n${frame.open}${detail}${frame.close}`,
    data: { error: { kind, message: `${message} (${detail})` } },
    isError: true,
  }
}

/** Our sentence for a failure, and the service's own message (third-party words) where there is one. */
function describeError(error: unknown): { kind: string; message: string; detail?: string } {
  if (error instanceof InputError) {
    return { kind: 'input', message: `${sentence(oneLine(error.message, 400))} Fix the arguments and call again.` }
  }
  if (isProviderError(error)) {
    // A 4xx the upstream answered on purpose (not found, gone, forbidden) is about the request, not an outage.
    if (error.kind === 'upstream' && error.status !== undefined && error.status < 500)
      return {
        kind: error.kind,
        message: describeRefusal(error.provider, error.status),
        detail: oneLine(error.message, 300),
      }
    const friendly = describeProviderFailure(error.kind, error.provider, error.retryAfterMs)
    return { kind: error.kind, message: friendly, detail: oneLine(error.message, 300) }
  }
  if (isFetchError(error))
    return {
      kind: error.kind,
      message: describeFetchFailure(error.kind, error.status),
      detail: oneLine(error.message, 300),
    }
  if (error instanceof Error && error.name === 'ConfigError')
    return { kind: 'config', message: `Not configured: ${oneLine(error.message, 400)}` }
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))
    return {
      kind: 'timeout',
      message: 'The call was cancelled or ran out of time before it finished. Try again, or ask for less.',
    }
  // An unexpected error's message can be anything (a parser quoting its input): framed like a service's.
  const detail = error instanceof Error ? error.message : String(error)
  return { kind: 'internal', message: 'The tool failed unexpectedly.', detail: oneLine(redactSecrets(detail), 300) }
}

export const sentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`)

// The engines' own words (a refused request's reason quotes the vendor's body) go inside the frame; the line says
// only which engine failed and how.
function engineLine(response: SearchResponse, services: readonly ServiceSpec[]): string {
  const parts: string[] = []
  for (const [name, report] of Object.entries(response.providers) as [
    ProviderName,
    SearchResponse['providers'][ProviderName],
  ][]) {
    if (report.status === 'ok') parts.push(`${name} ${report.results}`)
    else if (report.status === 'late') parts.push(`${name} not waited for (still searching after ${report.ms} ms)`)
    else if (report.status === 'error' && report.error)
      parts.push(`${name} failed: ${describeProviderFailure(report.error.kind, name, undefined, undefined, services)}`)
  }
  return parts.length > 0 ? `Engines: ${parts.join(' · ')}` : ''
}

/** The failed engines' messages, one line each, for inside the frame: only kinds whose sentence would quote them. */
function engineMessages(response: SearchResponse): string {
  const lines = Object.entries(response.providers).flatMap(([name, r]) =>
    r.status === 'error' &&
    r.error?.message &&
    (r.error.kind === 'bad_request' || !KIND_PRIORITY.includes(r.error.kind))
      ? [`- ${name}: ${oneLine(redactSecrets(r.error.message), 300)}`]
      : [],
  )
  return lines.length > 0
    ? `## What the failed engines said
${lines.join('\n')}`
    : ''
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

/**
 * A fetched page for the model: our one line (kind of result, size), then the page's title, source, site, byline and
 * text, all inside the untrusted-content frame, within `maxChars`.
 */
export function pageResult(page: ReadablePage, maxChars: number): ToolResult {
  const intro = `Fetched page (${page.markdown.length} characters of text).`
  const head = [
    `# ${oneLine(page.title ?? page.finalUrl, 300)}`,
    [
      `Source: ${page.finalUrl}`,
      page.siteName && oneLine(page.siteName, 120),
      page.byline && oneLine(page.byline, 120),
      page.publishedAt && `published ${page.publishedAt.slice(0, 10)}`,
    ]
      .filter(Boolean)
      .join(' · '),
  ].join('\n')
  const frame = untrustedFrame('the fetched page', page.degraded && `Shown as plain text: ${page.degraded}.`)
  const body = fitText(page.markdown, Math.max(200, maxChars - intro.length - head.length - frame.length - 4))
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
  return { content: `${intro}\n${frame.open}${head}\n\n${body.text}${frame.close}`, data }
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
      .map(([name, r]) => describeProviderFailure(r.error?.kind ?? 'upstream', name, undefined, undefined, services))
      .join(' ')
    const message = `The search failed: every engine it tried failed. ${why}`
    const said = engineMessages(response)
    const frame = untrustedFrame('what the engines answered')
    const content = said
      ? `${message}\n\n${frame.open}${fitText(said, Math.max(200, maxChars - message.length - frame.length - 2)).text}${frame.close}`
      : message
    return {
      content,
      data: { ...data, error: { kind: worstKind(kinds), message: said ? `${message}\n${said}` : message } },
      isError: true,
    }
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
  return { content: searchText(response, results, maxChars, services), data }
}

/**
 * The text of a search that found something (or nothing): the results' titles, snippets and URLs, the vendor's answer,
 * the read pages' passages and the failed engines' messages inside one untrusted-content frame; our counts, notes and
 * the engines line outside it. At most `maxChars` characters.
 */
function searchText(
  response: SearchResponse,
  results: SearchResponse['results'],
  maxChars: number,
  services: readonly ServiceSpec[],
): string {
  const notes = [...response.warnings, ...(response.keyless_only ? [response.keyless_only.message] : [])]
  const footer = [engineLine(response, services), ...notes.map((w) => `Note: ${oneLine(w, 200)}`)]
    .filter(Boolean)
    .join('\n')
  const said = engineMessages(response)
  const noResults = `No results for ${JSON.stringify(response.query)}. Try other words, a wider freshness window or fewer domain filters.`
  const frame = untrustedFrame(
    "the search results: their titles, URLs, snippets, the search engine's answer and the pages read",
    response.reads && response.reads.length > 0 ? 'Cite a passage of the pages read as [p1], [p2]…' : undefined,
  )
  const room = Math.max(200, maxChars - footer.length - frame.length - said.length - 8)
  // Read pages' passages take at most half of the room.
  const evidence = evidenceText(response, Math.floor(room / 2))
  const evidenceRoom = evidence ? evidence.framed.length + evidence.after.length + 4 : 0
  const budget = Math.max(200, room - evidenceRoom - (results.length === 0 ? noResults.length + 2 : 0))
  const synthesized =
    results.length === 0
      ? ''
      : toText(
          synthesize(
            {
              query: response.query,
              results,
              answer: response.answer ?? null,
              answer_source: response.answer_source,
              intent: response.intent,
              // The answer line is built from the pages read when there are any.
              ...(response.passages && { passages: response.passages }),
            },
            { maxChars: budget },
          ),
        ).trim()
  const framed = [synthesized, evidence?.framed ?? '', said].filter(Boolean).join('\n\n')
  const parts = [
    results.length === 0 ? noResults : '',
    framed ? `${frame.open}${framed}${frame.close}` : '',
    evidence?.after ?? '',
    footer,
  ]
  return parts.filter(Boolean).join('\n\n')
}

export function threadResult(thread: Thread, maxChars: number): ToolResult {
  const meta = [thread.type.replace('_', ' '), `${thread.comments.length} comments`, `${thread.refs.length} references`]
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
  // Our line says what it is and how much; the title, URL, state, labels and posts are the thread's (third parties').
  const intro = `Thread: ${meta}.`
  const head = [
    `# ${oneLine(thread.title || thread.url, 200)}`,
    thread.url,
    [
      thread.state && oneLine(thread.state, 40),
      thread.labels.length > 0 && `labels: ${oneLine(thread.labels.join(', '), 300)}`,
    ]
      .filter(Boolean)
      .join(' · '),
  ]
    .filter(Boolean)
    .join('\n')
  const frame = untrustedFrame('the thread: its title, posts, comments and the titles of what it references')
  const main = `${head}\n\n${thread.body.trim()}${comments.length > 0 ? `\n\n## Comments\n\n${comments.join('\n\n')}` : ''}`
  const body = fitText(main, Math.max(200, maxChars - intro.length - 1 - frame.length - refText.text.length))
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
  return { content: `${intro}\n${frame.open}${body.text}${refText.text}${frame.close}`, data }
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
