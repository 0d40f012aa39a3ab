import { jsonPage, textPage, xmlPage } from './_text-pages.js'
import type { ReadablePage } from './page.js'
import {
  DEFAULT_EXTRACT_LIMITS,
  type ExtractReadableOptions,
  complexityReason,
  extractReadable,
  plainTextPage,
} from './extract.js'

/**
 * Turns a decoded body of any allowed media type into a `ReadablePage` (pure): HTML through `extractReadable`,
 * JSON pretty-printed, markdown and plain text as they are, RSS/Atom/XML as a list of items.
 */
export function pageFromBody(text: string, contentType: string, options: ExtractReadableOptions): ReadablePage {
  const finalUrl = options.finalUrl ?? options.url
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? ''
  if (type === 'text/html' || type === 'application/xhtml+xml') return extractReadable(text, options)
  if (type === 'application/json' || type.endsWith('+json')) return jsonPage(text, options.url, finalUrl)
  if (type === 'text/markdown' || type === 'text/x-markdown') return textPage(text, options.url, finalUrl, true)
  if (type.endsWith('/xml') || type.endsWith('+xml')) {
    const tooComplex = complexityReason(text, { ...DEFAULT_EXTRACT_LIMITS, ...options.limits })
    if (tooComplex)
      return { ...plainTextPage(text, options, `feed too complex to read as items: ${tooComplex}`), readerable: false }
    return xmlPage(text, options.url, finalUrl)
  }
  return textPage(text, options.url, finalUrl, false)
}

/**
 * What `pageFromBody` degrades to when extraction cannot run or finish (out of time or memory): HTML and XML as
 * plain text from a linear scan, other bodies as they are; `degraded` says `reason`.
 */
export function plainPageFromBody(
  text: string,
  contentType: string,
  options: ExtractReadableOptions,
  reason: string,
): ReadablePage {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? ''
  if (type === 'text/html' || type.endsWith('/xml') || type.endsWith('+xml'))
    return plainTextPage(text, options, reason)
  const markdown = type === 'text/markdown' || type === 'text/x-markdown'
  return { ...textPage(text, options.url, options.finalUrl ?? options.url, markdown), degraded: reason }
}
