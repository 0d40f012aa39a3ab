import type { Context, MiddlewareHandler } from 'hono'
import { hostnameOf } from '../allowed-hosts.js'
import type { AppEnv } from '../request-env.js'
import { errorJson } from '../error-responses.js'
import type { HostPolicy } from '../host-policy.js'
import { PUBLIC_PATHS } from './auth.js'

const SETTING = '--allowed-hosts or SEARCH_LAYER_ALLOWED_HOSTS'

// Caller-supplied text in a message: quoted, and short enough that a huge header cannot bloat the log or the reply.
const quote = (text: string) => JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text)

// The Host header a browser sent and the authority the URL was built from (an absolute request target wins over
// Host in node-server): both must be acceptable.
function requestAuthorities(c: Context<AppEnv>): string[] {
  const url = new URL(c.req.url).host
  const header = c.req.header('host')
  return header === undefined || header === url ? [url] : [header, url]
}

function hostRefusal(authority: string, policy: HostPolicy): string {
  const hostname = hostnameOf(authority)
  const hint = hostname ? ` (e.g. ${hostname}; a leading dot, .example.com, takes a domain and its subdomains)` : ''
  return `Host ${quote(authority)} is not allowed: this server answers to ${policy.described}. To reach it by this name, add it to ${SETTING}${hint}.`
}

/**
 * Refuses (403 `host_not_allowed`) a request addressed to a host name the policy does not accept: the defence
 * against DNS rebinding, where a web page reaches this server under its own domain. Orchestrators probe
 * `/healthz` and `/readyz` under any name (a pod IP, a service name), and those carry no history or results, so they
 * are exempt.
 */
export function allowedHost(policy: HostPolicy): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (policy.checksHost && !PUBLIC_PATHS.has(c.req.path)) {
      const refused = requestAuthorities(c).find((a) => {
        const hostname = hostnameOf(a)
        return !hostname || !policy.allowsHost(hostname)
      })
      if (refused !== undefined) return errorJson(c, 'host_not_allowed', hostRefusal(refused, policy))
    }
    await next()
  }
}

const CROSS_ORIGIN_ADVICE = `browser pages may call this server only from its own origin (the web app at /), from localhost, or from a host named in ${SETTING}`

function crossOriginRefusal(c: Context<AppEnv>, policy: HostPolicy): string | undefined {
  const origin = c.req.header('origin')
  const host = c.req.header('host') ?? new URL(c.req.url).host
  if (origin !== undefined)
    return policy.allowsOrigin(origin, host)
      ? undefined
      : `Cross-origin request refused: Origin ${quote(origin)} is not this server's own; ${CROSS_ORIGIN_ADVICE}.`
  // Browsers omit Origin on GET requests that are not CORS (images, links, no-cors fetches); Sec-Fetch-Site still
  // says the request comes from another site's page.
  const site = c.req.header('sec-fetch-site')
  if (site === 'cross-site' || site === 'same-site')
    return `Cross-origin request refused: the browser marks it Sec-Fetch-Site: ${site}; ${CROSS_ORIGIN_ADVICE}.`
  return undefined
}

/**
 * Refuses (403 `cross_origin`) a browser request made by another site's page, GET included: a cross-site GET to
 * `/v1/search` would otherwise run a paid search on the user's keys. Clients that are not browsers send neither
 * `Origin` nor `Sec-Fetch-Site` and pass.
 */
export function sameOriginOnly(policy: HostPolicy): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const refusal = crossOriginRefusal(c, policy)
    if (refusal) return errorJson(c, 'cross_origin', refusal)
    await next()
  }
}
