import { type Doc, type El, orNull } from './_dom.js'

/**
 * The page's `<meta>` tags, read in one walk: `content` of the first tag with each `name`, `property`, `itemprop`
 * and `http-equiv` value. A CSS query per candidate tag walked the whole document each time (~15 walks, about a
 * tenth of a typical page's extraction in linkedom).
 */
export class MetaTags {
  private readonly first = new Map<string, string | null>()

  constructor(doc: Doc) {
    for (const meta of Array.from(doc.getElementsByTagName('meta')))
      for (const attr of ['name', 'property', 'itemprop', 'http-equiv'] as const) {
        const value = meta.getAttribute(attr)
        if (value === null) continue
        // http-equiv values are matched case-insensitively (`[http-equiv="content-language" i]`); the others exactly.
        const key = `${attr}=${attr === 'http-equiv' ? value.toLowerCase() : value}`
        if (!this.first.has(key)) this.first.set(key, meta.getAttribute('content'))
      }
  }

  /** The content of the first tag of the first key (`name=…`, `property=…`, …) that has one, as `querySelector` would. */
  content(keys: readonly string[]): string | null {
    for (const key of keys) {
      const value = orNull(this.first.get(key))
      if (value) return value
    }
    return null
  }
}

export function isoDate(value: string | null | undefined): string | null {
  if (!value) return null
  const trimmed = value.trim()
  // A bare year or a number is not a publication date we can trust.
  if (!/^\d{4}-\d{2}|[A-Za-z]{3,}/.test(trimmed)) return null
  // NOTE(ecma262): a date-time without an offset parses as local time; pages mean UTC far more often than the server's zone.
  const floating = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/.exec(trimmed)
  const ms = Date.parse(floating ? `${floating[1]}T${floating[2]}Z` : trimmed)
  if (Number.isNaN(ms)) return null
  const year = new Date(ms).getUTCFullYear()
  return year >= 1990 && year <= 2100 ? new Date(ms).toISOString() : null
}

function jsonLdDates(doc: Doc): string[] {
  const found: string[] = []
  const visit = (value: unknown, depth: number) => {
    if (depth > 6 || value === null || typeof value !== 'object') return
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1)
      return
    }
    const record = value as Record<string, unknown>
    if (typeof record.datePublished === 'string') found.push(record.datePublished)
    for (const key of ['@graph', 'mainEntity', 'mainEntityOfPage']) if (key in record) visit(record[key], depth + 1)
  }
  for (const script of Array.from(doc.getElementsByTagName('script'))) {
    if (script.getAttribute('type') !== 'application/ld+json') continue
    try {
      visit(JSON.parse(script.textContent ?? ''), 0)
    } catch {
      // Malformed JSON-LD is common; the other sources still apply.
    }
  }
  return found
}

const PUBLISHED_META = [
  'property=article:published_time',
  'name=article:published_time',
  'itemprop=datePublished',
  'property=og:published_time',
  'name=date',
  'name=pubdate',
  'name=publishdate',
  'name=dc.date',
  'name=DC.date.issued',
  'name=dcterms.created',
  'property=datePublished',
]

/** The first `datetime` of the first element in `elements` that `accept`s it. */
function firstDatetime(elements: ArrayLike<El>, accept: (el: El) => boolean): string | null {
  for (const el of Array.from(elements))
    if (el.getAttribute('datetime') !== null && accept(el)) return el.getAttribute('datetime')
  return null
}

function insideArticle(el: El): boolean {
  for (let parent = el.parentNode; parent; parent = parent.parentNode) if (parent.nodeName === 'ARTICLE') return true
  return false
}

export function findPublishedAt(doc: Doc, meta: MetaTags): string | null {
  // In order of trust; each is looked up only when those before it gave no date.
  const candidates: (() => string | null | (string | null)[])[] = [
    () => meta.content(PUBLISHED_META),
    () => jsonLdDates(doc),
    () => doc.querySelector('[itemprop="datePublished"][datetime]')?.getAttribute('datetime') ?? null,
    () => {
      const times = doc.getElementsByTagName('time')
      return [
        firstDatetime(times, (el) => el.getAttribute('pubdate') !== null),
        firstDatetime(times, insideArticle),
        firstDatetime(times, () => true),
      ]
    },
  ]
  for (const candidate of candidates) {
    const found = candidate()
    for (const value of Array.isArray(found) ? found : [found]) {
      const iso = isoDate(value)
      if (iso) return iso
    }
  }
  return null
}

export function findLang(doc: Doc, meta: MetaTags): string | null {
  return (
    orNull(doc.documentElement?.getAttribute('lang')) ??
    orNull(doc.documentElement?.getAttribute('xml:lang')) ??
    meta.content(['http-equiv=content-language', 'name=language', 'property=og:locale'])?.replace(/_/g, '-') ??
    null
  )
}
