import { type ReadablePage, pageFromBody } from './extract.js'
import { type SafeFetchOptions, safeFetch } from './safe-fetch.js'

/**
 * Fetches a URL with `safeFetch` and returns its readable content: HTML through Readability, JSON, markdown,
 * plain text and feeds as pages too. Rejects only with `FetchError` (every kind `safeFetch` has).
 */
export async function fetchPage(url: string, options: SafeFetchOptions = {}): Promise<ReadablePage> {
  const resource = await safeFetch(url, options)
  return pageFromBody(resource.text, resource.contentType, { url: resource.url, finalUrl: resource.finalUrl })
}
