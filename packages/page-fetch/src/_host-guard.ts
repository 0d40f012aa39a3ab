import type { LookupAddress } from 'node:dns'
import { type Env, stripUrlCredentials } from '@search-layer/core'
import { envSwitch } from '@search-layer/core/config'
import { blockedAddressReason, parseHostLiteral } from './address.js'
import { FetchError } from './errors.js'

/** Resolves a host name to all its addresses (`SafeFetchOptions.lookup`). */
export type ResolveHost = (hostname: string) => Promise<readonly { address: string; family: number }[]>

const PRIVATE_HOSTS_ENV = 'SEARCH_LAYER_ALLOW_PRIVATE_HOSTS'
const ALLOW_HINT = `set ${PRIVATE_HOSTS_ENV}=1 to allow private hosts`

/** Whether non-public addresses may be fetched, and what a refusal tells the user to do about it. */
export interface PrivateHosts {
  allowed: boolean
  hint: string
}

/**
 * The caller's `allowPrivateHosts`, else `SEARCH_LAYER_ALLOW_PRIVATE_HOSTS` read as every switch is (on, true, 1 /
 * off, false, 0). Any other value leaves private hosts refused, and each refusal names the value: a fetch never
 * reaches a private address on a guess, and `=yes` is never silently taken for off.
 */
export function privateHostsPolicy(allowPrivateHosts: boolean | undefined, env: Env): PrivateHosts {
  if (allowPrivateHosts !== undefined) return { allowed: allowPrivateHosts, hint: ALLOW_HINT }
  try {
    return { allowed: envSwitch(env, PRIVATE_HOSTS_ENV) ?? false, hint: ALLOW_HINT }
  } catch (error) {
    return { allowed: false, hint: `${(error as Error).message.replace(/\.$/, '')} (on allows private hosts)` }
  }
}

export type Pin = { address: string; family: 4 | 6 }

export const describe = (url: URL): string => stripUrlCredentials(url)

/**
 * Parses and checks the scheme of a URL (the first one or a redirect target).
 * @throws FetchError `bad_url` when it does not parse or has no host, `blocked` for a scheme other than http/https.
 */
export function parseTarget(raw: string, base: URL | undefined, requested: string): URL {
  let url: URL
  try {
    url = base ? new URL(raw, base) : new URL(raw)
  } catch (cause) {
    throw new FetchError(`not a valid URL: ${truncate(raw)}`, {
      kind: base ? 'http' : 'bad_url',
      url: requested,
      cause,
    })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    const what = base
      ? `a redirect to ${url.protocol} URL ${truncate(url.href)}`
      : `${url.protocol} URL ${truncate(url.href)}`
    throw new FetchError(`refused to fetch ${what}: only http and https are fetched`, {
      kind: 'blocked',
      url: requested,
    })
  }
  if (url.hostname === '')
    throw new FetchError(`not a valid URL: ${truncate(raw)} has no host`, { kind: 'bad_url', url: requested })
  return url
}

export function normalizeHostName(host: string): string {
  try {
    return new URL(`http://${host}/`).hostname.toLowerCase()
  } catch {
    return host.toLowerCase()
  }
}

export function truncate(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}

export async function vetHost(
  url: URL,
  requested: string,
  { allowed: allowPrivate, hint }: PrivateHosts,
  resolve: ResolveHost,
  signal: AbortSignal,
): Promise<Pin[]> {
  const literal = parseHostLiteral(url.hostname)
  if (literal) {
    const reason = allowPrivate ? undefined : blockedAddressReason(literal.address)
    if (reason)
      throw new FetchError(`refused to fetch ${describe(url)}: ${reason}; ${hint}`, {
        kind: 'blocked',
        url: requested,
      })
    return [literal]
  }
  // RFC 6761: localhost names are loopback whatever a resolver says (`localhost.` may not resolve at all).
  const localName = /(^|\.)localhost\.?$/i.test(url.hostname)
  const refuseLocalName = () =>
    new FetchError(`refused to fetch ${describe(url)}: ${url.hostname} is a loopback address; ${hint}`, {
      kind: 'blocked',
      url: requested,
    })
  let answers: readonly { address: string; family: number }[]
  try {
    answers = await raceAbort(resolve(url.hostname), signal)
  } catch (cause) {
    if (signal.aborted) throw cause
    if (localName && !allowPrivate) throw refuseLocalName()
    const code = (cause as { code?: string }).code
    throw new FetchError(`could not resolve ${url.hostname} (${code ?? 'lookup failed'})`, {
      kind: 'network',
      url: requested,
      retryable: code === 'EAI_AGAIN',
      cause,
    })
  }
  const pins: Pin[] = []
  for (const answer of answers) {
    const parsed = parseHostLiteral(answer.address)
    if (!parsed) continue
    // Refuse if any answer is non-public: a mixed answer is how DNS rebinding hides an internal address.
    const reason = allowPrivate ? undefined : blockedAddressReason(parsed.address)
    if (reason) {
      throw new FetchError(
        `refused to fetch ${describe(url)}: ${url.hostname} resolves to ${parsed.address}, a ${reason}; ${hint}`,
        { kind: 'blocked', url: requested },
      )
    }
    pins.push(parsed)
  }
  if (localName && !allowPrivate) throw refuseLocalName()
  if (pins.length === 0)
    throw new FetchError(`could not resolve ${url.hostname} (no addresses)`, {
      kind: 'network',
      url: requested,
      retryable: false,
    })
  return pins
}

/** `promise`, or the signal's reason as soon as it aborts (the promise itself runs on). */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/**
 * A `net.connect` lookup that only ever answers with the addresses vetted for that host name in this call,
 * so the socket goes to exactly what was checked: no second DNS query, no rebinding window.
 */
export function pinnedLookup(pins: Map<string, Pin[]>) {
  return (hostname: string, options: { all?: boolean } | number, callback: LookupCallback): void => {
    const vetted = pins.get(hostname.toLowerCase())
    if (!vetted || vetted.length === 0) {
      const error: NodeJS.ErrnoException = new Error(`no vetted address for ${hostname}`)
      error.code = 'ENOTFOUND'
      callback(error, '')
      return
    }
    if (typeof options === 'object' && options.all)
      callback(
        null,
        vetted.map((p) => ({ address: p.address, family: p.family })),
      )
    else callback(null, vetted[0]?.address ?? '', vetted[0]?.family)
  }
}
