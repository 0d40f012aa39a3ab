import type { Freshness, ProviderName } from '@search-layer/core'
import { READ_LIMITS, type ReadRequest } from '@search-layer/evidence/options'
import { UsageError } from './io.js'

/** `pd|pw|pm|py`, or a date range `2026-01-01to2026-03-31` (Brave's form) or `2026-01-01..2026-03-31`. */
export function parseFreshnessFlag(value: string): Freshness {
  if (['pd', 'pw', 'pm', 'py'].includes(value)) return value as Freshness
  const range = /^(\d{4}-\d{2}-\d{2})(?:to|\.\.)(\d{4}-\d{2}-\d{2})$/.exec(value)
  if (range) return { from: range[1]!, to: range[2]! }
  throw new UsageError(`--freshness must be pd, pw, pm, py or a range like 2026-01-01to2026-03-31 (got "${value}")`)
}

/** A comma (or space) separated list flag. */
function parseList(value: string | undefined): string[] {
  return value ? value.split(/[,\s]+/).filter(Boolean) : []
}

/**
 * `--include-domains a.com,b.org` and the other domain lists. A flag given with no domain in it (`--include-domains ,`)
 * is refused: searched as if absent, it would not restrict what the user asked to restrict.
 */
export function parseDomainsFlag(name: string, value: string): string[] {
  const list = parseList(value)
  if (list.length === 0) throw new UsageError(`--${name} needs at least one domain, like a.com,b.org (got "${value}")`)
  return list
}

/** `--source brave,exa`, checked against the registered provider ids. */
export function parseSources(value: string | undefined, ids: readonly string[]): ProviderName[] | undefined {
  if (value === undefined) return undefined
  const list = parseList(value)
  for (const name of list) {
    if (!ids.includes(name)) {
      throw new UsageError(`--source takes a comma list of ${ids.join(', ')} (got "${name}")`)
    }
  }
  if (list.length === 0) throw new UsageError(`--source needs at least one of ${ids.join(', ')}`)
  return list as ProviderName[]
}

/** A positive integer flag within bounds. */
export function parseIntFlag(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got "${value}")`)
  return n
}

/**
 * `--read [N]` and `--read-tokens <n>` as the request's `read`: N from 0 to 10, 5 when left out (`--read` gives
 * `''`). `--read-tokens` alone is a usage error: it says how much evidence, `--read` whether to read.
 */
export function parseReadFlags(read: string | undefined, tokens: string | undefined): ReadRequest | undefined {
  if (read === undefined) {
    if (tokens !== undefined) throw new UsageError('--read-tokens needs --read (e.g. --read 5 --read-tokens 1000)')
    return undefined
  }
  const pages = read === '' ? READ_LIMITS.defaultPages : parseIntFlag('read', read, 0, READ_LIMITS.maxPages)!
  const budgetTokens = parseIntFlag('read-tokens', tokens, 1, READ_LIMITS.maxBudgetTokens)
  return budgetTokens === undefined ? pages : { pages, budgetTokens }
}
