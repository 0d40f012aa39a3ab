// Base URLs: checked before they are used, and shown without the credentials they may carry.
import type { ConfigProblem, ConfigSource, ServiceSpec } from './_config-shared.js'

// A base URL is not a secret, but it may carry credentials (user:pass@, ?key=): show it without them.
function showUrlValue(value: string): string {
  const shown = URL.canParse(value) ? redactUrl(value) : value
  return JSON.stringify(shown.length > 120 ? `${shown.slice(0, 117)}...` : shown)
}

export function checkUrl(
  url: string,
  source: ConfigSource,
  spec: ServiceSpec,
): { url: string; problem?: undefined } | { problem: ConfigProblem } {
  const service = spec.id
  const variable = source.startsWith('env:') ? source.slice(4) : undefined
  const file = source.startsWith('file:') ? source.slice(5) : undefined
  const where = `${service} base URL from ${source} (${showUrlValue(url)})`
  const allowed = `expected an http(s) URL${spec.defaultBaseUrl ? ` like ${spec.defaultBaseUrl}` : ''}`
  const problem = (what: string): { problem: ConfigProblem } => ({
    problem: {
      kind: 'invalid_url',
      severity: 'error',
      message: `${where} ${what}; ${allowed}.`,
      services: [service],
      ...(variable && { variable }),
      ...(file && { file, field: `${service}.apiUrl` }),
    },
  })
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return problem('is not a URL')
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return problem(`must be an http(s) URL, not ${parsed.protocol}`)
  return { url: url.replace(/\/+$/, '') }
}

// A base URL may carry credentials (user:pass@ or ?key=); show neither.
export function redactUrl(url: string): string {
  try {
    const u = new URL(url)
    if (u.username || u.password) {
      u.username = '***'
      u.password = ''
    }
    for (const k of [...u.searchParams.keys()]) u.searchParams.set(k, '***')
    return u.toString().replace(/\/$/, '')
  } catch {
    return '[invalid url]'
  }
}
