/**
 * Cassettes: provider exchanges recorded to readable JSON files and answered from them later, so an agent's own
 * tests run offline. One file per exchange, `<provider>-<hash>.json`, where the hash covers the normalised request
 * (method, URL without credentials or secret parameters and with sorted parameters, body without secret fields
 * and with sorted keys). The same normalisation decides which file a replayed request reads, so a key that differs (or is absent)
 * at replay time still finds the recording. A cassette never holds a key: secret parameters, fields and headers are
 * dropped, URL credentials removed, and every configured key value is scrubbed from the whole file before it is
 * written.
 */
import { mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import { FileNotReadError, readBoundedTextFileSync } from './bounded-file.js'
import { sha256Hex } from './_sha256.js'
import { ConfigError, ProviderError } from './errors.js'
import { lazySchema } from './lazy-schema.js'
import type { Env } from './env.js'
import { stripUrlCredentialsInText } from './redact.js'

/** Records every provider exchange into this directory. */
export const CASSETTE_RECORD_ENV = 'SEARCH_LAYER_RECORD'
/** Answers every provider call from the cassettes in this directory, opening no connection. */
export const CASSETTE_REPLAY_ENV = 'SEARCH_LAYER_REPLAY'

/** Whether cassettes are being recorded or replayed, and where. */
export interface CassetteConfig {
  mode: 'record' | 'replay'
  /** Absolute directory. */
  dir: string
  /** The variable it came from, for messages. */
  variable: typeof CASSETTE_RECORD_ENV | typeof CASSETTE_REPLAY_ENV
}

/**
 * Reads `SEARCH_LAYER_RECORD` / `SEARCH_LAYER_REPLAY` (relative directories resolve against the working directory);
 * undefined when neither is set. Throws `ConfigError` when both are set.
 */
export function resolveCassetteConfig(env: Env = process.env): CassetteConfig | undefined {
  const record = env[CASSETTE_RECORD_ENV]?.trim()
  const replay = env[CASSETTE_REPLAY_ENV]?.trim()
  if (record && replay)
    throw new ConfigError(
      `${CASSETTE_RECORD_ENV} and ${CASSETTE_REPLAY_ENV} are both set; set ${CASSETTE_RECORD_ENV}=<dir> to record provider calls or ${CASSETTE_REPLAY_ENV}=<dir> to answer them from cassettes, not both.`,
      { variable: CASSETTE_REPLAY_ENV },
    )
  if (record) return { mode: 'record', dir: resolve(record), variable: CASSETTE_RECORD_ENV }
  if (replay) return { mode: 'replay', dir: resolve(replay), variable: CASSETTE_REPLAY_ENV }
  return undefined
}

/**
 * `resolveCassetteConfig`, plus a check a whole run needs once: a replay directory that is missing or holds no
 * cassettes is a `ConfigError` (instead of every provider reporting itself unconfigured or missing its cassette).
 */
export function checkCassetteConfig(env: Env = process.env): CassetteConfig | undefined {
  const config = resolveCassetteConfig(env)
  if (config?.mode !== 'replay') return config
  let files: string[]
  try {
    files = readdirSync(config.dir)
  } catch (error) {
    throw new ConfigError(
      `${CASSETTE_REPLAY_ENV}=${config.dir} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unknown error'}); record cassettes there first with ${CASSETTE_RECORD_ENV}=${config.dir}`,
      { variable: CASSETTE_REPLAY_ENV },
    )
  }
  if (!files.some((file) => CASSETTE_FILE.test(file)))
    throw new ConfigError(
      `${CASSETTE_REPLAY_ENV}=${config.dir} holds no cassettes; record them first with ${CASSETTE_RECORD_ENV}=${config.dir}`,
      { variable: CASSETTE_REPLAY_ENV },
    )
  return config
}

const CASSETTE_FILE = /^[a-z0-9-]+-[0-9a-f]{12}\.json$/
// One answer, at most 5 MiB of body (http.ts) and its headers, as JSON: a file far past that is not a cassette.
const MAX_CASSETTE_BYTES = 32 * 1024 * 1024

/** A request as a cassette stores and matches it. */
export interface CassetteRequest {
  method: string
  url: string
  body?: unknown
}

/** A response as a cassette stores it; a JSON body is kept as JSON, anything else as text. */
export interface CassetteResponse {
  status: number
  headers: Record<string, string>
  bodyType: 'json' | 'text'
  body: unknown
}

// Built with the first replayed file: a search that records or replays nothing never builds it.
const cassetteSchema = lazySchema(() =>
  z.object({
    provider: z.string(),
    recordedAt: z.string(),
    request: z.object({ method: z.string(), url: z.string(), body: z.unknown().optional() }),
    response: z.object({
      status: z.number().int().min(100).max(599),
      headers: z.record(z.string(), z.string()),
      bodyType: z.enum(['json', 'text']),
      body: z.unknown(),
    }),
  }),
)
/** One recorded exchange: the file's whole content. */
export type Cassette = z.infer<ReturnType<typeof cassetteSchema>>

// Parameter, field and header names that carry credentials (`key`, `api_key`, `apiKey`, `access_token`…).
const SECRET_NAME =
  /^(?:x-)?(?:(?:api|subscription|access|auth|refresh|id|client|session)?[_-]?(?:key|token|secret)|apikey|password|passwd|auth|authorization|cookie|set-cookie|signature|sig)$/i

const MASK = '[redacted]'

/** Whether a query parameter, body field or header name is one that holds a credential. */
function isSecretName(name: string): boolean {
  return (
    SECRET_NAME.test(name) || /(?:^|[_-])(?:api[_-]?key|access[_-]?token|auth[_-]?token|secret|password)$/i.test(name)
  )
}

// Variable names that hold credentials: BRAVE_API_KEY, GITHUB_TOKEN, SEARCH_LAYER_LLM_KEY, a plug-in's FOO_SECRET.
const KEY_VARIABLE = /(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD)$/i

/**
 * The credential values in an environment: every variable whose name says it holds a key or token, which covers
 * every provider definition's key variables (`env.apiKey`), the LLM key and GitHub's token.
 */
export function keyValuesFromEnv(env: Env): string[] {
  const values: string[] = []
  for (const [name, value] of Object.entries(env)) if (value && KEY_VARIABLE.test(name)) values.push(value)
  return values
}

/** Replaces every occurrence of each secret (6 characters or more) with `[redacted]`, also inside JSON strings. */
export function scrubValues(text: string, secrets: readonly (string | undefined | null)[]): string {
  let out = text
  // Longest first, so a key that contains another is removed whole.
  const sorted = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.length >= 6))].sort(
    (a, b) => b.length - a.length,
  )
  for (const secret of sorted) {
    const escaped = JSON.stringify(secret).slice(1, -1)
    for (const form of new Set([secret, escaped, encodeURIComponent(secret)])) out = out.split(form).join(MASK)
  }
  return out
}

function sortedDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedDeep)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value).sort()) {
    if (isSecretName(key)) continue
    out[key] = sortedDeep((value as Record<string, unknown>)[key])
  }
  return out
}

function normaliseUrl(url: string): string {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return url
  }
  u.username = ''
  u.password = ''
  u.hash = ''
  // A parameter may carry a URL of its own (a fetched page, a query that is a URL): its credentials go too.
  const kept = [...u.searchParams.entries()]
    .filter(([name]) => !isSecretName(name))
    .map(([name, value]) => [name, stripUrlCredentialsInText(value)] as [string, string])
  kept.sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1))
  u.search = new URLSearchParams(kept).toString()
  return u.toString()
}

/**
 * The request as it is stored and matched: secret query parameters and body fields removed, parameters and keys
 * sorted, the given secret values scrubbed wherever else they appear (a key in a URL path), and every URL's
 * `user:password@` removed (the request's own, and URLs in parameter values and the body).
 */
export function normaliseCassetteRequest(request: CassetteRequest, secrets: readonly string[] = []): CassetteRequest {
  const normalised: CassetteRequest = {
    method: request.method.toUpperCase(),
    url: normaliseUrl(request.url),
    ...(request.body !== undefined && { body: sortedDeep(request.body) }),
  }
  return JSON.parse(stripUrlCredentialsInText(scrubValues(JSON.stringify(normalised), secrets))) as CassetteRequest
}

/** `<provider>-<12 hex>.json`: the file a normalised request is recorded in and replayed from. */
export function cassetteFileName(provider: string, normalised: CassetteRequest): string {
  const hash = sha256Hex(JSON.stringify([normalised.method, normalised.url, normalised.body ?? null])).slice(0, 12)
  return `${providerSlug(provider)}-${hash}.json`
}

const providerSlug = (provider: string): string => provider.toLowerCase().replace(/[^a-z0-9]+/g, '-') || 'provider'

// Response headers worth keeping: what the error mapping, rate limiting and pagination read, and request ids.
const KEPT_HEADER =
  /^(?:content-type|retry-after|location|link|x-ratelimit-.+|x-rate-limit-.+|ratelimit(?:-.+)?|(?:x-)?(?:[a-z]+-)?request-id)$/

/** The response headers a cassette keeps: content type, rate-limit and retry headers, request ids; never credentials. */
export function keptHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of Object.keys(headers).sort()) {
    const lower = name.toLowerCase()
    if (KEPT_HEADER.test(lower) && !isSecretName(lower) && !/auth|cookie|key|token/.test(lower))
      out[lower] = headers[name]!
  }
  return out
}

function responseOf(status: number, headers: Readonly<Record<string, string>>, text: string): CassetteResponse {
  const kept = keptHeaders(headers)
  if (/\bjson\b/i.test(kept['content-type'] ?? '') || /^\s*[[{]/.test(text)) {
    try {
      return { status, headers: kept, bodyType: 'json', body: JSON.parse(text) }
    } catch {
      // Not JSON after all (truncated, HTML with a JSON content type): kept as the text it was.
    }
  }
  return { status, headers: kept, bodyType: 'text', body: text }
}

/** The body text a replayed response hands to the caller's parser. */
export function cassetteBodyText(response: CassetteResponse): string {
  return response.bodyType === 'json' ? JSON.stringify(response.body) : String(response.body)
}

/** What a recording needs besides the exchange itself. */
export interface CassetteWriteOptions {
  dir: string
  provider: string
  /** Every key value to scrub: the call's own key and the environment's key variables. */
  secrets: readonly string[]
  now?: () => Date
}

/**
 * Writes one exchange as a pretty-printed cassette (atomically, so concurrent identical calls leave one whole file)
 * and returns its path. Throws `ProviderError` (`config`) when the directory cannot be written.
 */
export function writeCassette(
  request: CassetteRequest,
  response: { status: number; headers: Readonly<Record<string, string>>; text: string },
  options: CassetteWriteOptions,
): string {
  const normalised = normaliseCassetteRequest(request, options.secrets)
  const name = cassetteFileName(options.provider, normalised)
  const cassette: Cassette = {
    provider: options.provider,
    recordedAt: (options.now?.() ?? new Date()).toISOString(),
    request: normalised,
    response: responseOf(response.status, response.headers, response.text),
  }
  const text = `${scrubValues(JSON.stringify(cassette, null, 2), options.secrets)}\n`
  const file = join(options.dir, name)
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
  try {
    mkdirSync(options.dir, { recursive: true })
    writeFileSync(temp, text, { mode: 0o644 })
    renameSync(temp, file)
  } catch (error) {
    throw new ProviderError(
      `${options.provider}: cannot write cassette ${name} in ${options.dir} (${(error as NodeJS.ErrnoException).code ?? 'unknown error'}); check ${CASSETTE_RECORD_ENV}`,
      { kind: 'config', provider: options.provider, retryable: false, cause: error, secrets: [...options.secrets] },
    )
  }
  return file
}

/**
 * Reads the cassette recorded for a request. Throws `ProviderError` (`config`, code `cassette_missing`) naming the
 * provider, the file it looked for and the directory when there is none, and (`config`, code `cassette_invalid`)
 * when the file is not a cassette.
 */
export function readCassette(
  request: CassetteRequest,
  options: { dir: string; provider: string; secrets: readonly string[] },
): Cassette {
  const normalised = normaliseCassetteRequest(request, options.secrets)
  const name = cassetteFileName(options.provider, normalised)
  const file = join(options.dir, name)
  const fail = (code: string, what: string, cause?: unknown) =>
    new ProviderError(`${options.provider}: ${what}`, {
      kind: 'config',
      provider: options.provider,
      code,
      retryable: false,
      cause,
      secrets: [...options.secrets],
    })
  let text: string
  try {
    text = readBoundedTextFileSync(file, MAX_CASSETTE_BYTES)
  } catch (error) {
    if (error instanceof FileNotReadError)
      throw fail('cassette_invalid', `cannot read cassette ${file}: ${error.reason}`)
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR')
      throw fail('cassette_invalid', `cannot read cassette ${file} (${code})`)
    throw fail(
      'cassette_missing',
      `no cassette for ${normalised.method} ${shorten(normalised.url)}: looked for ${name} in ${options.dir} (${CASSETTE_REPLAY_ENV}); record it with ${CASSETTE_RECORD_ENV}=${options.dir}`,
    )
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw fail('cassette_invalid', `cassette ${file} is not valid JSON; record it again`, error)
  }
  const cassette = cassetteSchema().safeParse(parsed)
  if (!cassette.success) {
    const issue = cassette.error.issues[0]
    throw fail(
      'cassette_invalid',
      `cassette ${file} is not a cassette (${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'unexpected value'}); record it again`,
    )
  }
  return cassette.data
}

const shorten = (url: string): string => (url.length > 160 ? `${url.slice(0, 159)}…` : url)

/** Whether `dir` holds at least one cassette recorded for `provider`. */
export function hasCassettesFor(dir: string, provider: string): boolean {
  const slug = providerSlug(provider)
  // The whole name, not a prefix: `brave-news-…` cassettes are not `brave`'s.
  const own = (file: string) =>
    file.length === slug.length + 18 && file.startsWith(`${slug}-`) && CASSETTE_FILE.test(file)
  try {
    return readdirSync(dir).some(own)
  } catch {
    return false
  }
}

/**
 * The key handed to a provider replaying without one: long enough to be scrubbed like a real key, so the
 * normalised request (and the cassette it names) is the same as when the recording was made with a real key.
 */
export const REPLAY_PLACEHOLDER_KEY = 'search-layer-replay-placeholder-key'

/**
 * The placeholder key when `env` replays cassettes and the directory holds some for `provider`: replay needs no key,
 * so a CI without keys still runs the providers it has recordings for. Undefined otherwise (and when the
 * cassette variables are invalid: the call itself reports that).
 */
export function replayKeyFor(provider: string, env: Env): string | undefined {
  let config: CassetteConfig | undefined
  try {
    config = resolveCassetteConfig(env)
  } catch {
    return undefined
  }
  if (config?.mode !== 'replay' || !hasCassettesFor(config.dir, provider)) return undefined
  return REPLAY_PLACEHOLDER_KEY
}
