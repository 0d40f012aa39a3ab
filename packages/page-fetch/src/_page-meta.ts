import { type Doc, orNull } from './_dom.js'

function metaContent(doc: Doc, selectors: readonly string[]): string | null {
  for (const selector of selectors) {
    const value = orNull(doc.querySelector(selector)?.getAttribute('content'))
    if (value) return value
  }
  return null
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
  for (const script of Array.from(doc.querySelectorAll('script[type="application/ld+json"]'))) {
    try {
      visit(JSON.parse(script.textContent ?? ''), 0)
    } catch {
      // Malformed JSON-LD is common; the other sources still apply.
    }
  }
  return found
}

export function findPublishedAt(doc: Doc): string | null {
  const candidates: (string | null)[] = [
    metaContent(doc, [
      'meta[property="article:published_time"]',
      'meta[name="article:published_time"]',
      'meta[itemprop="datePublished"]',
      'meta[property="og:published_time"]',
      'meta[name="date"]',
      'meta[name="pubdate"]',
      'meta[name="publishdate"]',
      'meta[name="dc.date"]',
      'meta[name="DC.date.issued"]',
      'meta[name="dcterms.created"]',
      'meta[property="datePublished"]',
    ]),
    ...jsonLdDates(doc),
    doc.querySelector('[itemprop="datePublished"][datetime]')?.getAttribute('datetime') ?? null,
    doc.querySelector('time[pubdate][datetime]')?.getAttribute('datetime') ?? null,
    doc.querySelector('article time[datetime]')?.getAttribute('datetime') ?? null,
    doc.querySelector('time[datetime]')?.getAttribute('datetime') ?? null,
  ]
  for (const candidate of candidates) {
    const iso = isoDate(candidate)
    if (iso) return iso
  }
  return null
}

export function findLang(doc: Doc): string | null {
  return (
    orNull(doc.documentElement?.getAttribute('lang')) ??
    orNull(doc.documentElement?.getAttribute('xml:lang')) ??
    metaContent(doc, [
      'meta[http-equiv="content-language" i]',
      'meta[name="language"]',
      'meta[property="og:locale"]',
    ])?.replace(/_/g, '-') ??
    null
  )
}
