import { type ProviderErrorKind, keyVariableHint, redactSecrets } from '@search-layer/core'
import { GITHUB_SERVICE, type ServiceSpec } from '@search-layer/core/config'
import { upstreamWaitMs } from '@search-layer/core/http'
import { builtInProviders } from '@search-layer/engine'
import type { FetchErrorKind } from '@search-layer/page-fetch'

// The variable to set for a provider (or GitHub), from its definition; none for a keyless one.
function keyVariableOf(provider: string, services: readonly ServiceSpec[]): string | undefined {
  const spec = provider === GITHUB_SERVICE.id ? GITHUB_SERVICE : services.find((s) => s.id === provider)
  return spec && spec.env.apiKey.length > 0 ? keyVariableHint(spec) : undefined
}

const label = (provider: string | undefined): string =>
  provider ? (provider === 'github' ? 'GitHub' : provider.charAt(0).toUpperCase() + provider.slice(1)) : 'The service'

/**
 * One sentence an agent (and its user) can act on, by error kind; never a key, never a stack. `services` are the
 * definitions whose key variables it may name (default the built-in providers).
 */
export function describeProviderFailure(
  kind: ProviderErrorKind | string,
  provider?: string,
  retryAfterMs?: number,
  detail?: string,
  services: readonly ServiceSpec[] = builtInProviders,
): string {
  const who = label(provider)
  const env = provider ? keyVariableOf(provider, services) : undefined
  // The wait may come from an error of another copy of core, or from JSON: checked here too, never "Infinity s".
  const waitMs = upstreamWaitMs(retryAfterMs)
  const retry =
    waitMs !== undefined && waitMs > 0 ? ` Retry in about ${Math.ceil(waitMs / 1000)} s.` : ' Retry in a little while.'
  switch (kind) {
    case 'timeout':
      return `${who} did not answer in time (timeout). Try again, or ask for fewer queries or results.`
    case 'auth':
      return `${who} rejected its API key (invalid, expired or revoked)${env ? `: check ${env}` : ''}.`
    case 'rate_limited':
      return `${who} is rate-limiting requests (too many in a short time).${retry}`
    case 'quota':
      return `${who}'s quota or credits are used up for this period; it will work again once the quota resets or the plan is raised.`
    case 'network':
      return `${who} could not be reached (network error).${retry}`
    case 'upstream':
      return `${who} had a server error.${retry}`
    case 'bad_request':
      return `${who} refused the request parameters${detail ? `: ${redactSecrets(detail)}` : ''}. Not retried: the same request fails the same way; try other options (count, language, freshness, filters).`
    case 'bad_response':
      return `${who} sent an answer that could not be read.`
    case 'config':
      return `${who} is not configured${env ? `: set ${env}` : ''}.`
    default:
      return `${who} failed${detail ? `: ${redactSecrets(detail)}` : '.'}`
  }
}

/**
 * Our sentence for a 4xx a service answered on purpose (not found, gone, refused): about the request, not an outage.
 * Names only the service and the status; the service's own words (which may quote the vendor) go in the frame.
 */
export function describeRefusal(provider: string | undefined, status: number): string {
  const who = label(provider)
  const what =
    status === 404
      ? `${who} has no such thread or page (HTTP 404): it is missing, or private to the token used.`
      : status === 410
        ? `${who} says it was deleted (HTTP 410).`
        : `${who} refused the request (HTTP ${status}).`
  return `${what} Check the URL; retrying will not help.`
}

/** One sentence for a failed page fetch, by `FetchError` kind (and the HTTP status the site answered). */
export function describeFetchFailure(kind: FetchErrorKind, status?: number): string {
  const text: Record<FetchErrorKind, string> = {
    bad_url: 'That is not a URL that can be fetched.',
    blocked: 'That address is private or local, so it is not fetched.',
    too_large: 'The page is too large to fetch.',
    unsupported_type: 'That URL is not a readable page (its content type is not text, HTML, JSON, XML or PDF).',
    empty: 'The document has no text to read (a PDF of scanned pages?).',
    unreadable: 'The document is broken or encrypted, so it cannot be read.',
    render_failed: 'The page needs JavaScript to show its text, and rendering it in the browser failed.',
    http:
      status === 404 || status === 410
        ? 'The page does not exist (the site answered "not found" or "gone"). Check the URL; retrying will not help.'
        : status === 429
          ? 'The site is rate-limiting requests right now. Wait a little and try again.'
          : 'The page could not be read.',
    timeout: 'The page did not load in time (timeout). Try again later.',
    network: 'The site could not be reached (network error).',
  }
  return text[kind]
}
