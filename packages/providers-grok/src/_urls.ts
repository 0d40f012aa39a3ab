import { type ParsedProviderRequest, passesDomainFilters, plainText } from '@search-layer/core'

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

export function usableTitle(title: string | null | undefined, url: string): string {
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

export function canonical(url: string): string {
  const u = new URL(url)
  u.hash = ''
  return u.href
}
