import { InputError } from '@search-layer/core'
import { parse } from 'tldts'
import defaultTable from '../../../references/authority-domains.json'

/** The authority table: tiers of `{ score, domains }`, a default score and host pattern rules. */
export interface AuthorityTable {
  [tier: string]: unknown
  tier4_default_score?: number
  pattern_rules?: readonly { pattern: string; score: number; note?: string }[]
}

export interface AuthorityOptions {
  /** Domains whose results get +0.2 (capped at 1), matched like table entries: `dev.to` covers `www.dev.to`. */
  domainBoost?: readonly string[]
}

/** The parts of an authority score, for `explain`. */
export interface AuthorityParts {
  /** From the table, a pattern rule or the default. */
  base: number
  /** 0.2 when a `domainBoost` domain matches, else 0. */
  boost: number
  /** `min(1, base + boost)`. */
  score: number
}

/** Scores a URL's authority; built once from a table by `createAuthorityScorer`. */
export interface AuthorityScorer {
  (url: string, options?: AuthorityOptions): number
  /** The same score split into table part and boost. */
  parts(url: string, options?: AuthorityOptions): AuthorityParts
}

const DOMAIN_BOOST = 0.2
const CACHE_LIMIT = 50_000

interface Rule {
  kind: 'first-label' | 'suffix-label' | 'host-suffix'
  value: string
  score: number
}

interface HostInfo {
  host: string
  /** Host, then each parent, down to the registrable domain: the longest suffix is tried first. */
  suffixes: string[]
  subdomain: string
  publicSuffix: string
}

function isScore(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1
}

/** `https://www.Dev.to/x` → `dev.to`; the same normalisation for table entries and `domainBoost`. */
export function normalizeDomain(domain: string): string {
  let text = String(domain ?? '')
    .trim()
    .toLowerCase()
  if (/[/:]/.test(text)) {
    try {
      text = new URL(/^[a-z][a-z\d+.-]*:\/\//.test(text) ? text : `http://${text}`).hostname
    } catch {
      // Not a URL either: keep the text, it simply will not match.
    }
  }
  return text
    .replace(/^\*\./, '')
    .replace(/^www\./, '')
    .replace(/\.+$/, '')
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/\.+$/, '').toLowerCase()
  } catch {
    try {
      return new URL(`http://${String(url ?? '').trim()}`).hostname.toLowerCase()
    } catch {
      return null
    }
  }
}

function compileRules(raw: unknown): Rule[] {
  if (raw === undefined) return []
  if (!Array.isArray(raw)) throw new InputError('authority table: pattern_rules must be an array')
  return raw.map((entry, index) => {
    const path = `pattern_rules.${index}`
    const { pattern, score } = (entry ?? {}) as { pattern?: unknown; score?: unknown }
    if (typeof pattern !== 'string' || !isScore(score)) {
      throw new InputError(`authority table: ${path} needs a pattern and a score in [0,1]`, [
        { path, message: 'expected { pattern: string, score: 0..1 }' },
      ])
    }
    const p = pattern.toLowerCase()
    if (p.endsWith('.*') && !p.startsWith('*.')) return { kind: 'first-label', value: p.slice(0, -2), score }
    if (p.startsWith('*.') && !p.slice(2).includes('.')) return { kind: 'suffix-label', value: p.slice(2), score }
    if (p.startsWith('*.')) return { kind: 'host-suffix', value: p.slice(1), score }
    throw new InputError(`authority table: ${path} has an unsupported pattern "${pattern}"`, [
      { path, message: 'expected "label.*", "*.label" or "*.domain.tld"' },
    ])
  })
}

/**
 * Build an authority scorer from a table shaped like `references/authority-domains.json`. A domain listed in
 * several tiers keeps its highest score. Throws `InputError` for a malformed table.
 */
export function createAuthorityScorer(table: AuthorityTable): AuthorityScorer {
  return scorerOf(compileTable(table))
}

function scorerOf(compiled: CompiledTable): AuthorityScorer {
  const scorer = ((url: string, options?: AuthorityOptions) => compiled.parts(url, options).score) as AuthorityScorer
  scorer.parts = compiled.parts
  return scorer
}

/** A URL's host (null when it has none) and its table score (the default when it has none). */
interface UrlAuthority {
  host: string | null
  base: number
}

/** `AuthorityScorer.parts` and its first step; `rank` takes that step, and boosts with domains it normalised once. */
interface CompiledTable {
  /** Host and table score of a URL, cached per URL. */
  lookup(url: string): UrlAuthority
  parts(url: string, options?: AuthorityOptions): AuthorityParts
}

function compileTable(table: AuthorityTable): CompiledTable {
  if (typeof table !== 'object' || table === null) throw new InputError('authority table must be an object')
  const domains = new Map<string, number>()
  for (const [tier, value] of Object.entries(table)) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !('domains' in value)) continue
    const { score, domains: list } = value as { score?: unknown; domains?: unknown }
    if (!isScore(score) || !Array.isArray(list) || !list.every((d) => typeof d === 'string')) {
      throw new InputError(`authority table: ${tier} needs a score in [0,1] and a list of domains`, [
        { path: tier, message: 'expected { score: 0..1, domains: string[] }' },
      ])
    }
    for (const domain of list as string[]) {
      const key = normalizeDomain(domain)
      domains.set(key, Math.max(score, domains.get(key) ?? 0))
    }
  }
  const fallback = table.tier4_default_score ?? 0.4
  if (!isScore(fallback)) throw new InputError('authority table: tier4_default_score must be in [0,1]')
  const rules = compileRules(table.pattern_rules)
  /** Per URL: its host and that host's table score. */
  const urls = new Map<string, UrlAuthority>()
  const bases = new Map<string, number>()

  function info(host: string): HostInfo {
    const parsed = parse(host)
    const registrable = parsed.domain ?? host
    const suffixes = [host]
    for (let rest = host; rest !== registrable && rest.includes('.'); ) {
      rest = rest.slice(rest.indexOf('.') + 1)
      suffixes.push(rest)
    }
    const subdomain = (parsed.subdomain ?? '').replace(/^www(?:\.|$)/, '')
    return { host, suffixes, subdomain, publicSuffix: parsed.publicSuffix ?? '' }
  }

  function baseScore(host: string): number {
    const cached = bases.get(host)
    if (cached !== undefined) return cached
    const h = info(host)
    let score: number | undefined
    for (const suffix of h.suffixes) {
      score = domains.get(suffix)
      if (score !== undefined) break
    }
    if (score === undefined) {
      for (const rule of rules) {
        const hit =
          rule.kind === 'first-label'
            ? h.subdomain === rule.value || h.subdomain.startsWith(`${rule.value}.`)
            : rule.kind === 'suffix-label'
              ? h.publicSuffix === rule.value || h.publicSuffix.startsWith(`${rule.value}.`)
              : h.host.endsWith(rule.value)
        if (hit) score = Math.max(score ?? 0, rule.score)
      }
    }
    const result = score ?? fallback
    if (bases.size >= CACHE_LIMIT) bases.clear()
    bases.set(host, result)
    return result
  }

  function lookup(url: string): UrlAuthority {
    let cached = urls.get(url)
    if (cached === undefined) {
      if (urls.size >= CACHE_LIMIT) urls.clear()
      const host = hostOf(url)
      cached = { host, base: host === null ? fallback : baseScore(host) }
      urls.set(url, cached)
    }
    return cached
  }

  function parts(url: string, options: AuthorityOptions = {}): AuthorityParts {
    const { host: h, base: b } = lookup(url)
    const boosted =
      h !== null &&
      (options.domainBoost ?? []).some((d) => {
        const domain = normalizeDomain(d)
        return domain !== '' && (h === domain || h.endsWith(`.${domain}`))
      })
    const boost = boosted ? DOMAIN_BOOST : 0
    return { base: b, boost, score: Math.round(Math.min(1, b + boost) * 10_000) / 10_000 }
  }

  return { lookup, parts }
}

/** The default table, compiled once. */
export const defaultAuthority: CompiledTable = compileTable(defaultTable as AuthorityTable)

const defaultScorer = scorerOf(defaultAuthority)

/** `AuthorityParts.boost` for a host from `defaultAuthority.lookup`, with each `domainBoost` entry already normalised. */
export function boostOf(host: string | null, domains: readonly string[]): number {
  if (host === null) return 0
  for (const domain of domains)
    if (domain !== '' && (host === domain || host.endsWith(`.${domain}`))) return DOMAIN_BOOST
  return 0
}

/**
 * Authority of a URL's domain in [0,1] from `references/authority-domains.json`: longest listed suffix down to the
 * registrable domain, then pattern rules (`docs.*`, `*.github.io`, `*.edu`…), else 0.4; `domainBoost` adds 0.2.
 */
export function authorityScore(url: string, options?: AuthorityOptions): number {
  return defaultScorer(url, options)
}

/** `authorityScore` split into table part and boost. */
export function authorityParts(url: string, options?: AuthorityOptions): AuthorityParts {
  return defaultScorer.parts(url, options)
}
