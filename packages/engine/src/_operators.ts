import {
  type DateRange,
  InputError,
  type ResolvedProviderDefinition,
  type ProviderName,
  type ProviderRequest,
  type QueryFilterKind,
  type QueryFilters,
  type QueryOperator,
  parseQueryOperators,
} from '@search-layer/core'
import type { ParsedSearchRequest } from './request.js'
import type { OperatorReport } from './response.js'

/** A request's query operators, read once per search: the texts to search for and the filters to apply. */
export interface SearchOperators {
  /** `query` (else the first of `queries`) without its operators: what is classified and expanded. */
  baseQuery: string
  /** Each of `queries` without its operators, when `queries` was given. */
  queries?: string[]
  parsed: QueryOperator[]
  /** The operators' filters joined with the request's own `includeDomains`/`excludeDomains`. */
  filters: QueryFilters
  /** The date range providers are asked for: the operators' range with open ends closed (epoch start, today). */
  dateRange?: DateRange
  /** The filter fields every provider call carries. */
  providerFields: Pick<
    ProviderRequest,
    'includeDomains' | 'excludeDomains' | 'language' | 'phrases' | 'excludeTerms' | 'fileTypes'
  >
  /** Filter kinds in force, in `QUERY_FILTER_KINDS` order. */
  kinds: QueryFilterKind[]
  /** What the caller should know: the operators' dates replacing the request's `freshness`. */
  warnings: string[]
}

const OPEN_START = '1970-01-01'

/**
 * Reads the operators of `query` and of each of `queries` and joins them with the request's domain fields. Throws
 * `InputError` for an unusable operator (see `parseQueryOperators`) or when `queries` disagree on `lang:`.
 */
export function readSearchOperators(req: ParsedSearchRequest, today: Date): SearchOperators {
  const main = req.query !== undefined ? parseQueryOperators(req.query) : undefined
  const listed = req.queries?.map((q) => parseQueryOperators(q))
  const parsedQueries = [...(main ? [main] : []), ...(listed ?? [])]
  const parsed = [
    ...new Map(parsedQueries.flatMap((p) => p.operators).map((o) => [`${o.name}\u0000${o.raw}`, o])).values(),
  ]
  const all = (pick: (f: QueryFilters) => readonly string[]) => [
    ...new Set(parsedQueries.flatMap((p) => pick(p.filters))),
  ]
  const languages = all((f) => (f.language ? [f.language] : []))
  if (languages.length > 1)
    throw new InputError(`the queries ask for different languages (${languages.map((l) => `lang:${l}`).join(', ')})`, [
      { path: 'queries', message: 'operator lang:' },
    ])
  const froms = all((f) => (f.dateRange?.from ? [f.dateRange.from] : [])).sort()
  const tos = all((f) => (f.dateRange?.to ? [f.dateRange.to] : [])).sort()
  const excludeDomains = [...new Set([...all((f) => f.excludeDomains), ...(req.excludeDomains ?? [])])]
  const filters: QueryFilters = {
    includeDomains: [...new Set([...all((f) => f.includeDomains), ...(req.includeDomains ?? [])])].filter(
      (d) => !excludeDomains.includes(d),
    ),
    excludeDomains,
    ...((froms.length > 0 || tos.length > 0) && {
      dateRange: { ...(froms.length && { from: froms.at(-1) }), ...(tos.length && { to: tos[0] }) },
    }),
    ...(languages[0] !== undefined && { language: languages[0] }),
    phrases: all((f) => f.phrases),
    excludeTerms: all((f) => f.excludeTerms),
    fileTypes: all((f) => f.fileTypes),
  }
  const day = today.toISOString().slice(0, 10)
  const from = filters.dateRange?.from ?? OPEN_START
  const dateRange = filters.dateRange && { from, to: filters.dateRange.to ?? [day, from].sort()[1]! }
  const nonEmpty = <T>(list: readonly T[]) => (list.length > 0 ? [...list] : undefined)
  const providerFields = {
    ...(nonEmpty(filters.includeDomains) && { includeDomains: filters.includeDomains }),
    ...(nonEmpty(filters.excludeDomains) && { excludeDomains: filters.excludeDomains }),
    ...(filters.language && { language: filters.language }),
    ...(nonEmpty(filters.phrases) && { phrases: filters.phrases }),
    ...(nonEmpty(filters.excludeTerms) && { excludeTerms: filters.excludeTerms }),
    ...(nonEmpty(filters.fileTypes) && { fileTypes: filters.fileTypes }),
  }
  const kinds: QueryFilterKind[] = []
  if (filters.includeDomains.length) kinds.push('site')
  if (filters.excludeDomains.length) kinds.push('exclude-site')
  if (dateRange) kinds.push('date')
  if (filters.language) kinds.push('lang')
  if (filters.phrases.length) kinds.push('phrase')
  if (filters.excludeTerms.length) kinds.push('exclude-term')
  if (filters.fileTypes.length) kinds.push('filetype')
  return {
    baseQuery: (main ?? listed![0]!).text,
    ...(listed && { queries: listed.map((p) => p.text) }),
    parsed,
    filters,
    ...(dateRange && { dateRange }),
    providerFields,
    kinds,
    warnings:
      dateRange && req.freshness !== undefined
        ? [
            `the query's date operators (${dateRange.from} to ${dateRange.to}) replace freshness ${JSON.stringify(req.freshness)}`,
          ]
        : [],
  }
}

/** What enforcement on the merged results did. */
export interface EnforcementSummary {
  dropped: { reason: string }[]
  dateUnverified: number
  unchecked: string[]
}

/**
 * The `operators` block of a response: what was parsed, which of the called providers applied each filter natively
 * (their definition's `queryFilters`) and which had it stripped, and what enforcement did. Undefined when no filter is
 * in force.
 */
export function describeOperators(
  operators: SearchOperators,
  called: readonly ProviderName[],
  definitionOf: ReadonlyMap<ProviderName, ResolvedProviderDefinition>,
  enforcement: EnforcementSummary,
): OperatorReport | undefined {
  if (operators.kinds.length === 0) return undefined
  const native: Record<ProviderName, QueryFilterKind[]> = {}
  const stripped: Record<ProviderName, QueryFilterKind[]> = {}
  for (const name of called) {
    const own = definitionOf.get(name)?.queryFilters ?? []
    native[name] = operators.kinds.filter((k) => own.includes(k))
    stripped[name] = operators.kinds.filter((k) => !own.includes(k))
  }
  const droppedBy: Record<string, number> = {}
  for (const { reason } of enforcement.dropped) droppedBy[reason] = (droppedBy[reason] ?? 0) + 1
  return {
    parsed: operators.parsed,
    filters: operators.kinds,
    native,
    stripped,
    dropped: enforcement.dropped.length,
    dropped_by: droppedBy,
    date_unverified: enforcement.dateUnverified,
    ...(enforcement.unchecked.length > 0 && { unchecked: enforcement.unchecked }),
  }
}
