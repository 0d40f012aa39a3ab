import { ProviderError } from './errors.js'
import { stripUrlCredentials } from './redact.js'
import type { SearchResult } from './response-schemas.js'
import { isoDate, parseHttpUrl, plainText } from './text.js'

/**
 * The most a result's fields may hold: a longer URL drops the result (a cut URL leads nowhere), a longer title or
 * snippet is cut. Vendors stay well inside them (snippets of 400-500 characters, titles under 200); the caps bound
 * what a plug-in can push into responses, agent text and the web app.
 */
export const RESULT_LIMITS = Object.freeze({ url: 2048, title: 300, snippet: 1000, answer: 20_000 })

/** Why a result was dropped: not an object, a URL that is not http(s), a URL over `RESULT_LIMITS.url`. */
export type RejectReason = 'not_an_object' | 'bad_url' | 'url_too_long'

/** A provider's answer as the engine takes it in: results checked and cleaned, the dropped ones counted. */
export interface CheckedResponse {
  results: SearchResult[]
  answer?: string
  /** Results dropped, by reason; empty when none was. */
  rejected: Partial<Record<RejectReason, number>>
}

/**
 * Checks what a provider (built-in or plug-in) returned before it enters a search: results need an http(s) URL
 * (credentials removed) of at most `RESULT_LIMITS.url` characters, titles and snippets become plain text (tags and
 * script/style content removed, entities decoded, control characters dropped) cut to their limits, dates become ISO
 * or null, ranks and scores numbers or defaults, and every result is tagged with `provider`. Anything else is
 * dropped and counted. Throws `ProviderError` (`bad_response`) when there is no results list at all.
 */
export function checkProviderResponse(
  provider: string,
  response: { results?: unknown; answer?: unknown } | null | undefined,
): CheckedResponse {
  const list = response?.results
  if (!Array.isArray(list))
    throw new ProviderError(`${provider} returned no results list (got ${describeType(list)}); expected an array`, {
      kind: 'bad_response',
      provider,
      retryable: false,
    })
  const results: SearchResult[] = []
  const rejected: CheckedResponse['rejected'] = {}
  list.forEach((item: unknown, index) => {
    const checked = checkResult(provider, item, index)
    if (typeof checked === 'string') rejected[checked] = (rejected[checked] ?? 0) + 1
    else results.push(checked)
  })
  const answer = typeof response?.answer === 'string' ? cleanAnswer(response.answer) : ''
  return { results, rejected, ...(answer && { answer }) }
}

const describeType = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value)

function checkResult(provider: string, item: unknown, index: number): SearchResult | RejectReason {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return 'not_an_object'
  const raw = item as Record<string, unknown>
  const parsed = parseHttpUrl(raw.url)
  if (parsed === null) return 'bad_url'
  const url = stripUrlCredentials(parsed)
  if (url.length > RESULT_LIMITS.url) return 'url_too_long'
  const { rank, providerScore, extra } = raw
  return {
    title: cleanText(raw.title, RESULT_LIMITS.title),
    url,
    snippet: cleanText(raw.snippet, RESULT_LIMITS.snippet),
    publishedAt: isoDate(raw.publishedAt),
    provider,
    rank: Number.isSafeInteger(rank) && (rank as number) > 0 ? (rank as number) : index + 1,
    ...(typeof providerScore === 'number' && Number.isFinite(providerScore) && { providerScore }),
    ...(isPlainObject(extra) && { extra }),
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

// Script and style bodies are code, not words: dropped with their tags, not kept as text.
const CODE_ELEMENT = /<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi
// C0 and C1 controls and the bidirectional overrides that can make a title read differently from what it is.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g
// The same, keeping line breaks and tabs: an answer is Markdown.
const CONTROLS_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g
// Work on a bounded prefix: tags and entities shrink text, but never by this much in a real title or snippet.
const RAW_FACTOR = 8

/** A vendor string as plain text of at most `max` characters; `''` for anything but a string. */
export function cleanText(value: unknown, max: number): string {
  if (typeof value !== 'string' || value === '') return ''
  let text = value.length > max * RAW_FACTOR ? value.slice(0, max * RAW_FACTOR) : value
  if (text.includes('<')) text = text.replace(CODE_ELEMENT, ' ')
  // Controls become spaces plainText collapses; those it decodes from entities (&#7;) go the same way after it.
  text = plainText(text.replace(CONTROLS, ' '))
  if (text.search(CONTROLS) >= 0) text = text.replace(CONTROLS, ' ').replace(/ {2,}/g, ' ').trim()
  return cut(text, max)
}

function cleanAnswer(answer: string): string {
  return cut(answer.replace(CONTROLS_BUT_LINES, '').trim(), RESULT_LIMITS.answer)
}

/** `text` cut to `max` characters with an ellipsis, never between the two halves of a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text
  let end = max - 1
  const last = text.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end--
  return `${text.slice(0, end).trimEnd()}…`
}
