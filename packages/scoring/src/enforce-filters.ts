import { hostMatches } from '@search-layer/core'
import { HAN_CLASS, HANGUL_CLASS, KANA_CLASS } from '@search-layer/core/text'

/**
 * The filters a search's results must pass, whatever the providers did with them (from query operators and the
 * request's own domain fields). Dates are inclusive `YYYY-MM-DD` days; an absent end is open.
 */
export interface ResultFilters {
  includeDomains?: readonly string[]
  excludeDomains?: readonly string[]
  dateRange?: { from?: string; to?: string }
  /** Primary language subtag (`zh`, `de`). Checked by script only; see `enforceFilters`. */
  language?: string
  excludeTerms?: readonly string[]
  fileTypes?: readonly string[]
}

/** Why a result was dropped: the filter it failed. */
export type FilterReason = 'site' | 'exclude-site' | 'date' | 'lang' | 'exclude-term' | 'filetype'

/** A result after enforcement; `dateUnverified` is set when a date filter applies and the result has no date. */
export type FilteredResult<T> = T & { dateUnverified?: true }

/** What `enforceFilters` kept, what it dropped and why, and which filters it could not check. */
export interface EnforcedResults<T> {
  results: FilteredResult<T>[]
  dropped: { url: string; reason: FilterReason }[]
  /** Filters given but not checkable here: `lang` for a Latin-script language. */
  unchecked: FilterReason[]
}

/** Results `enforceFilters` reads. */
export interface FilterableResult {
  url: string
  title?: string | null
  snippet?: string | null
  publishedAt?: string | null
}

// A language written in its own script is told apart from text in another by that script alone; Latin-script
// languages (de, fr, es…) would need a language detector, and a title of product names would fool it anyway.
const SCRIPT_OF: Readonly<Record<string, RegExp>> = {
  zh: new RegExp(`[${HAN_CLASS}]`, 'u'),
  ja: new RegExp(`[${KANA_CLASS}${HAN_CLASS}]`, 'u'),
  ko: new RegExp(`[${HANGUL_CLASS}]`, 'u'),
  ru: /\p{Script=Cyrillic}/u,
  uk: /\p{Script=Cyrillic}/u,
  bg: /\p{Script=Cyrillic}/u,
  sr: /\p{Script=Cyrillic}/u,
  ar: /\p{Script=Arabic}/u,
  fa: /\p{Script=Arabic}/u,
  he: /\p{Script=Hebrew}/u,
  el: /\p{Script=Greek}/u,
  th: /\p{Script=Thai}/u,
  hi: /\p{Script=Devanagari}/u,
}
const WORDLESS_SCRIPT = new RegExp(`[${HAN_CLASS}${KANA_CLASS}\\p{Script=Thai}]`, 'u')

/**
 * Drops the results that fail `filters`: a host outside `includeDomains` or inside `excludeDomains`; a date outside
 * `dateRange`; a title or snippet containing an excluded term (whole words; any substring in scripts written without
 * spaces); a URL path not ending in one of `fileTypes`; for a language with its own script (zh, ja, ko, ru, ar, he,
 * el, th, hi…), a title and snippet without a character of it. A result without a usable date is kept and marked
 * `dateUnverified` (many sources send no dates). Order is kept. Pure; never throws.
 */
export function enforceFilters<T extends FilterableResult>(
  results: readonly T[],
  filters: ResultFilters,
): EnforcedResults<T> {
  const script = filters.language ? SCRIPT_OF[filters.language] : undefined
  const excluded = (filters.excludeTerms ?? []).map(termMatcher)
  const dated = filters.dateRange !== undefined && (filters.dateRange.from ?? filters.dateRange.to) !== undefined
  const kept: FilteredResult<T>[] = []
  const dropped: EnforcedResults<T>['dropped'] = []
  for (const result of results) {
    const reason = failedFilter(result, filters, script, excluded)
    if (reason) dropped.push({ url: result.url, reason })
    else kept.push(dated && dayOf(result.publishedAt) === undefined ? { ...result, dateUnverified: true } : result)
  }
  return { results: kept, dropped, unchecked: filters.language && !script ? ['lang'] : [] }
}

function failedFilter(
  result: FilterableResult,
  filters: ResultFilters,
  script: RegExp | undefined,
  excluded: readonly RegExp[],
): FilterReason | undefined {
  const url = parseUrl(result.url)
  const host = url?.hostname ?? ''
  if (filters.includeDomains?.length && !filters.includeDomains.some((d) => hostMatches(host, d))) return 'site'
  if (filters.excludeDomains?.some((d) => hostMatches(host, d))) return 'exclude-site'
  const day = dayOf(result.publishedAt)
  const range = filters.dateRange
  if (day !== undefined && range && ((range.from && day < range.from) || (range.to && day > range.to))) return 'date'
  if (filters.fileTypes?.length) {
    const path = (url?.pathname ?? '').toLowerCase()
    if (!filters.fileTypes.some((ext) => path.endsWith(`.${ext}`))) return 'filetype'
  }
  const text = `${result.title ?? ''}\n${result.snippet ?? ''}`
  if (excluded.some((term) => term.test(text))) return 'exclude-term'
  if (script && !script.test(text)) return 'lang'
  return undefined
}

function termMatcher(term: string): RegExp {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')
  return WORDLESS_SCRIPT.test(term)
    ? new RegExp(escaped, 'iu')
    : new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu')
}

function dayOf(publishedAt: string | null | undefined): string | undefined {
  if (typeof publishedAt !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(publishedAt)) return undefined
  return publishedAt.slice(0, 10)
}

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value)
  } catch {
    return undefined
  }
}
