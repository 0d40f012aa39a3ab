import {
  type Cost,
  type HttpErrorResponse,
  type ParsedProviderRequest,
  ProviderError,
  type ProviderResponse,
  type RateLimitInfo,
  type SearchResult,
  describesKeyRejection,
  errorFromStatus,
  redactSecrets,
  retryHint,
} from '@search-layer/core'
import { httpUrl, isoDate, passesDomainFilters, plainText, safeParseJson } from '@search-layer/core'
import {
  hasEventStreamField,
  markdownLinks,
  removeCitationMarkers,
  removeThinkBlocks,
  trimLineEnds,
  unlinkMarkdown,
} from './_markdown-scan.js'
import { textBeforeMarkers } from './_markers.js'
import { GROK_WEB_SEARCH_USD_PER_CALL } from './definition.js'
import { chatPrompt, responsesPrompt } from './prompt.js'
import {
  GrokChatCompletionSchema,
  type GrokChatRequest,
  GrokChatResultSchema,
  GrokErrorSchema,
  GrokMessageItemSchema,
  GrokOutputTextSchema,
  type GrokResponsesRequest,
  GrokResponsesResponseSchema,
  GrokUrlCitationSchema,
  type GrokWebSearchTool,
} from './schema.js'

const SERVICE = 'grok'
const MAX_TOOL_DOMAINS = 5
const MAX_SNIPPET_CHARS = 400
// Content beyond this is not scanned for JSON; keeps the bracket scan linear in practice.
const MAX_SCAN_CHARS = 200_000
// Characters the search for a JSON list may read in all: a few times the text it searches.
const JSON_SCAN_BUDGET = 4 * MAX_SCAN_CHARS

export interface GrokBuildSettings {
  model: string
  now: Date
}

/** Builds the `POST /responses` body: prompt, `web_search` tool with domain filters xAI accepts. Pure. */
export function buildResponsesRequest(
  request: ParsedProviderRequest,
  settings: GrokBuildSettings,
): GrokResponsesRequest {
  const prompt = responsesPrompt(request, settings.now)
  const tool: GrokWebSearchTool = { type: 'web_search' }
  const include = request.includeDomains ?? []
  const exclude = request.excludeDomains ?? []
  // NOTE(grok): xAI takes at most 5 domains per list and not both lists together. Longer or combined
  // filters go in the prompt and are enforced on the cited URLs instead (see `filterByDomain`).
  if (include.length > 0 && include.length <= MAX_TOOL_DOMAINS) tool.allowed_domains = [...include]
  else if (include.length === 0 && exclude.length > 0) tool.excluded_domains = exclude.slice(0, MAX_TOOL_DOMAINS)
  return {
    model: settings.model,
    input: [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ],
    tools: [tool],
    store: false,
  }
}

/** Builds the `POST /chat/completions` body of the fallback mode. Pure. */
export function buildChatRequest(request: ParsedProviderRequest, settings: GrokBuildSettings): GrokChatRequest {
  const prompt = chatPrompt(request, settings.now)
  return {
    model: settings.model,
    messages: [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ],
    temperature: 0,
    stream: false,
  }
}

/** Removes inline citation markers such as ` [[1]](https://x.ai/news)` from answer text. */
export function stripCitationMarkers(text: string): string {
  return trimLineEnds(removeCitationMarkers(text)).trim()
}

function markdownToPlain(text: string): string {
  return plainText(
    unlinkMarkdown(
      stripCitationMarkers(text)
        // List markers start a bullet, they are not part of what it says.
        .replace(/^[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+/gm, ''),
    ).replace(/[*_`#>]+/g, ' '),
  )
}

function isTerminator(text: string, i: number): boolean {
  const c = text[i]
  if (c === '\n' || c === '。' || c === '！' || c === '？') return true
  return (c === '.' || c === '!' || c === '?') && (i + 1 >= text.length || /\s/.test(text[i + 1]!))
}

// How far from a citation its sentence is looked for, each way. Every citation is looked up this way, and an
// answer without sentence ends would otherwise be read whole for each of them.
const SENTENCE_REACH = 2000

/** The sentence a citation at [start, end) supports: the one ending at the marker, continued past it if unfinished. */
export function sentenceAround(text: string, start: number, end: number): string {
  const s = Math.max(0, Math.min(start, text.length))
  const e = Math.max(s, Math.min(end, text.length))
  const floor = Math.max(0, s - SENTENCE_REACH)
  // Skip back over adjacent markers and spaces: "claim. [[1]](a) [[2]](b)".
  const before = textBeforeMarkers(text, s, floor)
  let p = before.length - 1
  if (p < 0) return ''
  let from = Math.max(0, p - SENTENCE_REACH)
  for (let i = isTerminator(text, p) ? p - 1 : p; i >= from; i--) {
    if (isTerminator(text, i)) {
      from = i + 1
      break
    }
  }
  let to = Math.min(text.length, e + SENTENCE_REACH)
  if (isTerminator(text, p)) to = p + 1
  else
    for (p = e; p < to; p++)
      if (isTerminator(text, p)) {
        to = p + 1
        break
      }
  const sentence = markdownToPlain(text.slice(from, s) + text.slice(e, to)).replace(/\s+([.,;:!?。！？])/g, '$1')
  return sentence.length > MAX_SNIPPET_CHARS ? `${sentence.slice(0, MAX_SNIPPET_CHARS - 1)}…` : sentence
}

/** A readable title from a URL when the vendor gave none or only a citation number. */
export function titleFromUrl(url: string): string {
  const u = new URL(url)
  const host = u.hostname.replace(/^www\./, '')
  const segment = u.pathname.split('/').filter(Boolean).pop()
  if (!segment) return host
  let words: string
  try {
    words = decodeURIComponent(segment)
  } catch {
    words = segment
  }
  words = words
    .replace(/\.(?:html?|php|aspx?)$/i, '')
    .replace(/[-_+]+/g, ' ')
    .trim()
  return words && !/^\d+$/.test(words) ? `${words} - ${host}` : host
}

function usableTitle(title: string | null | undefined, url: string): string {
  const t = plainText(title)
  // NOTE(grok): inline-citation annotations often carry the marker number ("1") or the URL itself as title.
  if (!t || /^\[?\d+\]?$/.test(t) || t === url) return titleFromUrl(url)
  return t
}

/** Whether a URL passes the request's include/exclude domain filters. */
export function filterByDomain(
  url: string,
  request: Pick<ParsedProviderRequest, 'includeDomains' | 'excludeDomains'>,
): boolean {
  return passesDomainFilters(new URL(url).hostname, request)
}

function canonical(url: string): string {
  const u = new URL(url)
  u.hash = ''
  return u.href
}

export interface GrokMapOptions {
  model: string
  /** The request's num and domain filters; results are capped and filtered to match. */
  request?: Pick<ParsedProviderRequest, 'num' | 'includeDomains' | 'excludeDomains'>
  headers?: Readonly<Record<string, string>>
}

interface Cited {
  url: string
  title: string | null | undefined
  text: string
  start?: number | null
  end?: number | null
}

function badShape(what: string, issues: readonly { path: PropertyKey[]; message: string }[]): ProviderError {
  const where = issues
    .slice(0, 3)
    .map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
    .join('; ')
  return new ProviderError(`grok ${what} did not have the expected shape (${where})`, {
    kind: 'bad_response',
    provider: SERVICE,
  })
}

/**
 * Normalises a Responses API body: results from the `url_citation` annotations (real cited URLs, citation
 * order, deduplicated), snippets from the answer sentences they support, the answer with markers stripped.
 * Throws `ProviderError` (`bad_response`, or `upstream` for a failed response).
 */
export function mapResponsesBody(body: unknown, options: GrokMapOptions): ProviderResponse {
  const parsed = safeParseJson(GrokResponsesResponseSchema, body)
  if (!parsed.success) throw badShape('response', parsed.error.issues)
  const data = parsed.data
  if (data.status === 'failed')
    throw new ProviderError('grok reported the response as failed', {
      kind: 'upstream',
      provider: SERVICE,
      retryable: true,
    })
  const texts: string[] = []
  const cited: Cited[] = []
  let dropped = 0
  for (const rawItem of data.output) {
    // Each schema below pins `type` to a literal: other types (web_search_call, reasoning…) are skipped before
    // zod builds an error for them, as it would for every tool call in every response.
    if (!hasType(rawItem, 'message')) continue
    const item = safeParseJson(GrokMessageItemSchema, rawItem)
    if (!item.success) continue
    for (const rawPart of item.data.content ?? []) {
      if (!hasType(rawPart, 'output_text')) continue
      const part = safeParseJson(GrokOutputTextSchema, rawPart)
      if (!part.success || typeof part.data.text !== 'string') continue
      const text = part.data.text
      texts.push(text)
      for (const rawAnnotation of part.data.annotations ?? []) {
        if (!hasType(rawAnnotation, 'url_citation')) continue
        const annotation = safeParseJson(GrokUrlCitationSchema, rawAnnotation)
        if (!annotation.success) continue
        const url = httpUrl(annotation.data.url)
        if (url === null) {
          dropped++
          continue
        }
        cited.push({
          url,
          title: annotation.data.title,
          text,
          start: annotation.data.start_index,
          end: annotation.data.end_index,
        })
      }
    }
  }
  const fullText = texts.join('\n\n')
  if (cited.length === 0) cited.push(...markdownLinksVerified(fullText, data.citations ?? []))
  const results = toResults(cited, options)
  const response: ProviderResponse = { results, dropped }
  const answer = stripCitationMarkers(fullText)
  if (answer) response.answer = answer
  // NOTE(grok): real answers may carry `num_server_side_tools_used` but no `server_side_tool_usage_details`; the
  // `web_search_call` items in `output` still say how many searches were billed.
  const searchCalls = data.output.filter((item) => hasType(item, 'web_search_call')).length
  const cost = estimateGrokCost(options.model, data.usage ?? undefined, searchCalls)
  if (cost) response.cost = cost
  const rateLimit = rateLimitFromHeaders(options.headers ?? {})
  if (rateLimit) response.rateLimit = rateLimit
  return response
}

const hasType = (value: unknown, type: string): boolean =>
  typeof value === 'object' && value !== null && (value as { type?: unknown }).type === type

// Without annotations, only markdown links whose URL xAI itself lists in `citations` are trusted.
function markdownLinksVerified(text: string, citations: readonly unknown[]): Cited[] {
  const known = new Set(
    citations
      .map(httpUrl)
      .filter((u): u is string => u !== null)
      .map(canonical),
  )
  if (known.size === 0) return []
  const out: Cited[] = []
  for (const link of markdownLinks(text)) {
    const url = httpUrl(link.url)
    if (url && known.has(canonical(url)))
      out.push({ url, title: link.title, text, start: link.index, end: link.index + link.length })
  }
  return out
}

function toResults(cited: readonly Cited[], options: GrokMapOptions): SearchResult[] {
  const seen = new Set<string>()
  const results: SearchResult[] = []
  for (const c of cited) {
    const key = canonical(c.url)
    if (seen.has(key)) continue
    seen.add(key)
    if (options.request && !filterByDomain(c.url, options.request)) continue
    results.push({
      title: usableTitle(c.title, c.url),
      url: c.url,
      snippet: citationSnippet(c),
      publishedAt: null,
      provider: 'grok',
      rank: results.length + 1,
    })
    if (options.request && results.length >= options.request.num) break
  }
  return results
}

function citationSnippet(c: Cited): string {
  const { text } = c
  const validIndexes =
    typeof c.start === 'number' &&
    typeof c.end === 'number' &&
    Number.isInteger(c.start) &&
    Number.isInteger(c.end) &&
    c.start >= 0 &&
    c.end > c.start &&
    c.end <= text.length
  // NOTE(grok): indexes should bracket the marker; when they do not (0/0 on some tools, or shifted offsets),
  // locate the URL in the text instead.
  if (validIndexes && text.slice(c.start!, c.end!).includes('](')) return sentenceAround(text, c.start!, c.end!)
  const at = text.indexOf(c.url)
  if (at >= 0) {
    // The marker's opener is looked for only as far back as it may be: a search back to the start of the text
    // for each citation would read a long answer once per citation.
    const near = Math.max(0, at - 319)
    const before = text.slice(near, at + 1)
    const double = before.lastIndexOf('[[')
    const open = double >= 0 ? double : before.lastIndexOf('[')
    const markerStart = open >= 0 ? near + open : at
    return sentenceAround(text, markerStart, at + c.url.length + 1)
  }
  return validIndexes ? sentenceAround(text, c.start!, c.end!) : ''
}

// USD per million tokens; unknown models are estimated at grok-4.3 prices.
const PRICES: readonly [RegExp, number, number][] = [
  [/^grok-4\.3/, 1.25, 2.5],
  [/^grok-4(?:-1)?-fast/, 0.2, 0.5],
]
const DEFAULT_PRICE: [number, number] = [1.25, 2.5]

/**
 * The call's cost: xAI's own `cost_in_usd_ticks` when sent (`reported`), else tokens and search calls at list price
 * (search calls from `server_side_tool_usage_details`, else `webSearchCallsSeen`).
 */
export function estimateGrokCost(
  model: string,
  usage:
    | {
        input_tokens?: number | null
        output_tokens?: number | null
        cost_in_usd_ticks?: number | null
        server_side_tool_usage_details?: { web_search_calls?: number | null } | null
      }
    | undefined,
  /** Web searches seen in the answer, counted when `usage` has no `server_side_tool_usage_details`. */
  webSearchCallsSeen = 0,
): Cost | undefined {
  if (!usage) return undefined
  const ticks = usage.cost_in_usd_ticks
  if (typeof ticks === 'number' && Number.isFinite(ticks) && ticks >= 0) return { usd: ticks / 1e10, basis: 'reported' }
  const [inPrice, outPrice] =
    (PRICES.find(([re]) => re.test(model))?.slice(1) as [number, number] | undefined) ?? DEFAULT_PRICE
  const n = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0)
  const usd =
    (n(usage.input_tokens) * inPrice + n(usage.output_tokens) * outPrice) / 1e6 +
    n(usage.server_side_tool_usage_details?.web_search_calls ?? webSearchCallsSeen) * GROK_WEB_SEARCH_USD_PER_CALL
  return { usd: Math.round(usd * 1e8) / 1e8, basis: 'estimated' }
}

/** The assistant text of a chat completion body, plain JSON or SSE (`data: {...}` lines). Throws `bad_response`. */
export function readChatBody(text: string): {
  content: string
  usage?: { prompt_tokens?: number | null; completion_tokens?: number | null }
} {
  if (hasEventStreamField(text) && !/^\s*[{[]/.test(text)) {
    let content = ''
    let usage: { prompt_tokens?: number | null; completion_tokens?: number | null } | undefined
    let chunks = 0
    for (const line of text.split(/\r?\n/)) {
      const m = /^data:\s?(.*)$/.exec(line)
      if (!m || m[1]!.trim() === '[DONE]') continue
      let json: unknown
      try {
        json = JSON.parse(m[1]!)
      } catch {
        continue
      }
      const chunk = GrokChatCompletionSchema.safeParse(json)
      if (!chunk.success) continue
      chunks++
      const choice = chunk.data.choices?.[0]
      content += choice?.delta?.content ?? choice?.message?.content ?? ''
      if (chunk.data.usage) usage = chunk.data.usage
    }
    if (chunks === 0)
      throw new ProviderError('grok sent an event stream without any completion chunk', {
        kind: 'bad_response',
        provider: SERVICE,
      })
    return { content, ...(usage && { usage }) }
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    const kind = /^\s*</.test(text) ? 'HTML' : text.length === 0 ? 'an empty body' : 'malformed JSON'
    throw new ProviderError(`grok returned ${kind} instead of a chat completion (${text.length} bytes)`, {
      kind: 'bad_response',
      provider: SERVICE,
    })
  }
  const parsed = GrokChatCompletionSchema.safeParse(json)
  if (!parsed.success) throw badShape('chat completion', parsed.error.issues)
  const choice = parsed.data.choices?.[0]
  if (!choice)
    throw new ProviderError('grok chat completion had no choices', { kind: 'bad_response', provider: SERVICE })
  return {
    content: choice.message?.content ?? choice.delta?.content ?? '',
    ...(parsed.data.usage && { usage: parsed.data.usage }),
  }
}

/** The balanced JSON value starting at `start`; what it reads is taken from `scan.budget`, and stops it at 0. */
function balancedJsonAt(text: string, start: number, scan: { budget: number }): string | null {
  const open = text[start]
  const stack: string[] = [open === '{' ? '}' : ']']
  let inString = false
  const limit = Math.min(text.length, start + 1 + scan.budget)
  scan.budget -= limit - start - 1
  for (let i = start + 1; i < limit; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
      continue
    }
    if (c === '"') inString = true
    else if (c === '{') stack.push('}')
    else if (c === '[') stack.push(']')
    else if (c === '}' || c === ']') {
      const closes = stack.pop() === c
      if (closes && stack.length > 0) continue
      scan.budget += limit - i - 1
      return closes ? text.slice(start, i + 1) : null
    }
  }
  return null
}

function resultsArray(value: unknown): unknown[] | null {
  if (Array.isArray(value))
    return value.length === 0 || value.some((v) => v !== null && typeof v === 'object' && !Array.isArray(v))
      ? value
      : null
  if (value !== null && typeof value === 'object') {
    for (const key of ['results', 'sources', 'items', 'data']) {
      const inner = (value as Record<string, unknown>)[key]
      if (Array.isArray(inner)) return inner
    }
  }
  return null
}

/**
 * Finds the JSON result list in model output: drops `<think>` blocks, prefers fenced code blocks, and tolerates
 * prose before and after the JSON. Returns null when there is none. Never throws.
 */
export function extractJsonResults(content: string): unknown[] | null {
  let text = removeThinkBlocks(content.slice(0, MAX_SCAN_CHARS))
  const close = text.search(/<\/think(?:ing)?>/i)
  if (close >= 0) text = text.slice(text.indexOf('>', close) + 1)
  const candidates = [...text.matchAll(/```[a-zA-Z]*\s*\n?([\s\S]*?)```/g)].map((m) => m[1]!)
  candidates.push(text)
  // Each try reads on until its brackets balance: 200 tries from unclosed brackets would read the text 200 times.
  const scan = { budget: JSON_SCAN_BUDGET }
  for (const candidate of candidates) {
    let tries = 0
    for (let i = 0; i < candidate.length && tries < 200 && scan.budget > 0; i++) {
      const c = candidate[i]
      if (c !== '{' && c !== '[') continue
      tries++
      const slice = balancedJsonAt(candidate, i, scan)
      if (!slice) continue
      let value: unknown
      try {
        value = JSON.parse(slice)
      } catch {
        continue
      }
      const list = resultsArray(value)
      if (list) return list
      i += slice.length - 1
    }
  }
  return null
}

/** Normalises a chat-fallback body (JSON or SSE) into a `ProviderResponse`; only http(s) URLs with a host are kept. */
export function mapChatBody(text: string, options: GrokMapOptions): ProviderResponse {
  const { content, usage } = readChatBody(text)
  const list = extractJsonResults(content)
  if (list === null)
    throw new ProviderError('grok chat answer contained no JSON result list', {
      kind: 'bad_response',
      provider: SERVICE,
    })
  const results: SearchResult[] = []
  const seen = new Set<string>()
  let dropped = 0
  for (const raw of list) {
    const item = GrokChatResultSchema.safeParse(raw)
    const url = item.success ? httpUrl(item.data.url ?? item.data.link) : null
    if (!item.success || url === null) {
      dropped++
      continue
    }
    const key = canonical(url)
    if (seen.has(key)) continue
    seen.add(key)
    if (options.request && !filterByDomain(url, options.request)) continue
    results.push({
      title: usableTitle(item.data.title, url),
      url,
      snippet: plainText(item.data.snippet ?? item.data.description ?? item.data.summary),
      publishedAt: isoDate(
        item.data.published_at ?? item.data.published_date ?? item.data.publishedAt ?? item.data.date,
      ),
      provider: 'grok',
      rank: results.length + 1,
    })
    if (options.request && results.length >= options.request.num) break
  }
  const response: ProviderResponse = { results, dropped }
  const cost = estimateGrokCost(
    options.model,
    usage && { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens },
  )
  if (cost) response.cost = cost
  const rateLimit = rateLimitFromHeaders(options.headers ?? {})
  if (rateLimit) response.rateLimit = rateLimit
  return response
}

function headerNumber(headers: Readonly<Record<string, string>>, names: readonly string[]): number | undefined {
  for (const name of names) {
    const raw = headers[name]
    if (raw === undefined) continue
    const value = Number.parseFloat(raw)
    if (Number.isFinite(value) && value >= 0) return value
  }
  return undefined
}

/** Rate-limit hints from `x-ratelimit-*-requests` (OpenAI-style) or `x-ratelimit-*` headers. */
export function rateLimitFromHeaders(headers: Readonly<Record<string, string>>): RateLimitInfo | undefined {
  const limit = headerNumber(headers, ['x-ratelimit-limit-requests', 'x-ratelimit-limit', 'ratelimit-limit'])
  const remaining = headerNumber(headers, [
    'x-ratelimit-remaining-requests',
    'x-ratelimit-remaining',
    'ratelimit-remaining',
  ])
  const quotaLimit = headerNumber(headers, ['x-ratelimit-limit-tokens'])
  const quotaRemaining = headerNumber(headers, ['x-ratelimit-remaining-tokens'])
  if ([limit, remaining, quotaLimit, quotaRemaining].every((v) => v === undefined)) return undefined
  return {
    ...(limit !== undefined && { limit }),
    ...(remaining !== undefined && { remaining }),
    ...(quotaLimit !== undefined && { quotaLimit }),
    ...(quotaRemaining !== undefined && { quotaRemaining }),
  }
}

// NOTE(grok): xAI has sent its error text URL-encoded (`Incorrect%20API%20key%20provided…`, beeai-framework#447);
// decode it so the message reads as words and the key check below can recognise it.
function decodePercentEscapes(text: string | undefined): string | undefined {
  if (!text || !/%[0-9a-f]{2}/i.test(text)) return text
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

function errorDetail(response: HttpErrorResponse): { detail?: string; code?: string } {
  const parsed = GrokErrorSchema.safeParse(response.json)
  if (!parsed.success) return {}
  const { error, code, message } = parsed.data
  const detail = decodePercentEscapes(typeof error === 'string' ? error : (error?.message ?? message ?? undefined))
  const rawCode = typeof error === 'object' && error?.code != null ? error.code : code
  return { ...(detail && { detail }), ...(rawCode != null && { code: String(rawCode) }) }
}

/**
 * Maps an xAI error response: a bad key is **400** ("Incorrect API key", sometimes URL-encoded) or 401/403 → `auth`; exhausted credits or
 * spending limit → `quota`; 429 → `rate_limited`; 404 (unknown model) and 410 (retired endpoint) → non-retryable `upstream`.
 */
export function mapGrokError(
  response: HttpErrorResponse,
  secrets: readonly (string | undefined)[] = [],
): ProviderError {
  const { detail: raw, code } = errorDetail(response)
  const detail = raw ? truncate(redactSecrets(raw, secrets), 200) : undefined
  const suffix = detail ? `: ${detail}` : ''
  const base = { provider: SERVICE, status: response.status, code, secrets }
  const text = raw ?? ''
  const { status } = response
  if (/credits?|spending limit|billing|payment/i.test(text) && status !== 401 && status !== 500)
    return new ProviderError(`grok credits or spending limit exhausted (HTTP ${status})${suffix}`, {
      ...base,
      kind: 'quota',
    })
  if (status === 401 || status === 403 || (status < 500 && describesKeyRejection(text)))
    return new ProviderError(`grok rejected the API key (HTTP ${status}); check XAI_API_KEY${suffix}`, {
      ...base,
      kind: 'auth',
    })
  if (status === 402)
    return new ProviderError(`grok quota or credits exhausted (HTTP 402)${suffix}`, { ...base, kind: 'quota' })
  if (status === 429)
    return new ProviderError(`grok rate limit hit (HTTP 429)${suffix}${retryHint(response.retryAfterMs)}`, {
      ...base,
      kind: 'rate_limited',
      retryAfterMs: response.retryAfterMs,
    })
  if (status === 404)
    return new ProviderError(
      `grok endpoint or model not found (HTTP 404); check GROK_MODEL and GROK_API_URL${suffix}`,
      { ...base, kind: 'upstream', retryable: false },
    )
  if (status === 410)
    return new ProviderError(`grok endpoint is retired (HTTP 410); use the Responses API${suffix}`, {
      ...base,
      kind: 'upstream',
      retryable: false,
    })
  return errorFromStatus(SERVICE, status, { detail, code, retryAfterMs: response.retryAfterMs, secrets })
}

function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}
