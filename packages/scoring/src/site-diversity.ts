import { parse } from 'tldts'

/** Options for `diversifySites`. */
export interface DiversifyOptions {
  /** The user's query: a site it names ("github actions cache", "kodexolabs.com agents") is exempt. */
  query?: string
  /** At most this many results per site in the top `topN`. Default 3. */
  maxPerSite?: number
  /** How many top places are kept diverse. Default 10. */
  topN?: number
}

/** A result after diversity; `demotedFrom` is its 1-based place before, when it was moved down. */
export type DiversifiedResult<T> = T & { demotedFrom?: number }

const WORD = /[\p{L}\p{N}][\p{L}\p{N}.-]*/gu

/** The site a URL belongs to: its registrable domain (`blog.example.co.uk` → `example.co.uk`), else its host. */
export function siteOf(url: string): string {
  const parsed = parse(String(url ?? ''), { allowPrivateDomains: true })
  return (parsed.domain ?? parsed.hostname ?? '').toLowerCase()
}

function namedSites(query: string): Set<string> {
  const words = new Set<string>()
  for (const w of query.normalize('NFKC').toLowerCase().match(WORD) ?? []) {
    words.add(w)
    words.add(w.replace(/\.+$/, ''))
  }
  return words
}

function isNamed(site: string, named: ReadonlySet<string>): boolean {
  if (site === '' || named.size === 0) return false
  if (named.has(site)) return true
  const label = parse(site, { allowPrivateDomains: true }).domainWithoutSuffix
  return label !== null && label !== '' && named.has(label.toLowerCase())
}

function checkCount(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a whole number >= 1, got ${value}`)
  return value
}

/**
 * Keeps any one site to `maxPerSite` of the top `topN` places unless the query names it: the extra results move
 * down just below the top places, in their order; nothing is dropped and the order within a site never changes.
 * Throws `RangeError` when `maxPerSite` or `topN` is not a whole number >= 1.
 */
export function diversifySites<T extends { url: string }>(
  results: readonly T[],
  options: DiversifyOptions = {},
): DiversifiedResult<T>[] {
  const maxPerSite = checkCount('maxPerSite', options.maxPerSite, 3)
  const topN = checkCount('topN', options.topN, 10)
  const list = (results ?? []).filter((r) => r !== null && typeof r === 'object')
  const named = namedSites(options.query ?? '')
  const perSite = new Map<string, number>()
  const top: number[] = []
  const moved: number[] = []
  for (let i = 0; i < list.length && top.length < topN; i++) {
    const site = siteOf(list[i]!.url)
    const count = perSite.get(site) ?? 0
    if (count >= maxPerSite && site !== '' && !isNamed(site, named)) moved.push(i)
    else {
      perSite.set(site, count + 1)
      top.push(i)
    }
  }
  if (moved.length === 0) return [...list]
  const inTop = new Set(top)
  const order = [...top]
  for (let i = 0; i < list.length; i++) if (!inTop.has(i)) order.push(i)
  // Too few other sites to fill the top: a "moved" result may end where it was; only a real move is reported.
  return order.map((i, place) => (place > i ? { ...list[i]!, demotedFrom: i + 1 } : list[i]!))
}
