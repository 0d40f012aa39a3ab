import { homedir } from 'node:os'
import { join } from 'node:path'
import {
  MAX_QUERY_CHARS,
  ConfigError,
  type Env,
  type ProviderName,
  ProviderNameSchema,
  formatIssues,
  relevantIssues,
} from '@search-layer/core'
import { builtInProviders } from '@search-layer/engine'
import { z } from 'zod'
import { type AllowedHosts, isHostOrAddress, parseAllowedHosts } from './allowed-hosts.js'
import { parseApiKeys } from './api-keys.js'
import type { ApiKey } from './authenticator.js'

/** One documented server setting: its option name, env var, CLI flag and default. */
export interface ServerSetting {
  /** The `ServerOptions` field. */
  name: keyof ServerOptions
  env: string
  /** The `search-layer serve` flag, when there is one (secrets have none: argv is visible to every user). */
  flag?: string
  /** The default, as the user would type it; `(none)` when unset. */
  default: string
  description: string
}

/** Every server setting, for `search-layer serve --help` and the README. */
export const SERVER_SETTINGS: readonly ServerSetting[] = [
  {
    name: 'port',
    env: 'SEARCH_LAYER_PORT',
    flag: '--port',
    default: '8787',
    description: 'TCP port to listen on (0 picks a free one).',
  },
  {
    name: 'host',
    env: 'SEARCH_LAYER_HOST',
    flag: '--host',
    default: '127.0.0.1',
    description: 'Interface to bind; 0.0.0.0 to accept remote clients.',
  },
  {
    name: 'allowedHosts',
    env: 'SEARCH_LAYER_ALLOWED_HOSTS',
    flag: '--allowed-hosts',
    default: '(none: loopback names only)',
    description:
      'Host names the server answers to besides localhost, *.localhost, 127.0.0.0/8 and [::1]: a comma list, ".example.com" for a domain and its subdomains, or "all" to turn the Host check off (unsafe: lets web pages reach the server by DNS rebinding). Other Host values get 403; browser pages on other origins are refused unless their host is listed.',
  },
  {
    name: 'apiKeys',
    env: 'SEARCH_LAYER_API_KEYS',
    default: '(none: no auth)',
    description:
      'Comma list of bearer keys, or @/path/to/file with one key per line (optionally name:key). When set, every route but /healthz and /readyz needs Authorization: Bearer <key>. Set but empty (blank, only commas, an empty or comments-only file) refuses to start.',
  },
  {
    name: 'redisUrl',
    env: 'REDIS_URL',
    flag: '--redis-url',
    default: '(none: in-process)',
    description:
      'redis://host:port/db; shares cache, single-flight, rate limits, budgets and history across instances.',
  },
  {
    name: 'redisPrefix',
    env: 'SEARCH_LAYER_REDIS_PREFIX',
    default: 'search-layer:',
    description: 'Prefix of every Redis key this server writes.',
  },
  {
    name: 'redisTimeoutMs',
    env: 'SEARCH_LAYER_REDIS_TIMEOUT_MS',
    default: '250',
    description:
      'Longest wait for one Redis call before falling back to in-process state; after 3 calls in a row time out, Redis counts as hung and is skipped (in-process state, /readyz degraded) until a PING, sent every 8× this (at least 1 s), answers.',
  },
  {
    name: 'dataDir',
    env: 'SEARCH_LAYER_DATA_DIR',
    flag: '--data-dir',
    default: '$XDG_DATA_HOME/search-layer or ~/.local/share/search-layer',
    description: 'Where history.jsonl is written when Redis is not used (or is down).',
  },
  {
    name: 'historyMax',
    env: 'SEARCH_LAYER_HISTORY_MAX',
    default: '1000',
    description: 'History entries kept per client.',
  },
  {
    name: 'clientRateLimit',
    env: 'SEARCH_LAYER_CLIENT_RATE_LIMIT',
    flag: '--rate-limit',
    default: '60',
    description: 'Requests per client per window (0 turns it off); clients are API-key identities, else IP addresses.',
  },
  {
    name: 'clientRateWindowMs',
    env: 'SEARCH_LAYER_CLIENT_RATE_WINDOW_MS',
    default: '60000',
    description: 'Length of the fixed rate-limit window.',
  },
  {
    name: 'bodyLimitBytes',
    env: 'SEARCH_LAYER_BODY_LIMIT_BYTES',
    default: '65536',
    description: 'Largest accepted request body; larger ones get 413.',
  },
  {
    name: 'maxQueryChars',
    env: 'SEARCH_LAYER_MAX_QUERY_CHARS',
    default: '500',
    description: 'Longest accepted query; longer ones get 400.',
  },
  {
    name: 'requestTimeoutMs',
    env: 'SEARCH_LAYER_REQUEST_TIMEOUT_MS',
    default: '30000',
    description: 'A request still running after this gets 504 and its upstream calls are cancelled.',
  },
  {
    name: 'shutdownTimeoutMs',
    env: 'SEARCH_LAYER_SHUTDOWN_TIMEOUT_MS',
    default: '10000',
    description: 'On SIGTERM, how long in-flight requests may finish before connections are cut.',
  },
  {
    name: 'providerTimeoutMs',
    env: 'SEARCH_LAYER_PROVIDER_TIMEOUT_MS',
    default: '8000',
    description: 'Per-attempt timeout of one provider call.',
  },
  {
    name: 'fetchTimeoutMs',
    env: 'SEARCH_LAYER_FETCH_TIMEOUT_MS',
    default: '20000',
    description:
      'Deadline of one page fetch of /v1/fetch, download and reading together: a page not downloaded by then is a 504 timeout, one not read by then comes back as plain text (degraded).',
  },
  {
    name: 'maxConcurrentSearches',
    env: 'SEARCH_LAYER_MAX_CONCURRENT_SEARCHES',
    default: '32',
    description:
      'Searches (cache misses) running at once; more wait in arrival order (0: no limit). Cache hits never wait.',
  },
  {
    name: 'providerRateLimits',
    env: 'SEARCH_LAYER_RATE_LIMITS',
    default: '(engine defaults)',
    description: 'Provider requests per second, "brave=20,exa=10", or "off" (same syntax as the CLI).',
  },
  {
    name: 'monthlyBudgets',
    env: 'SEARCH_LAYER_MONTHLY_BUDGETS',
    default: '(none)',
    description: 'Provider calls per calendar month, "brave=2000,exa=1000"; counted in Redis when REDIS_URL is set.',
  },
  {
    name: 'logLevel',
    env: 'SEARCH_LAYER_LOG_LEVEL',
    flag: '--log-level',
    default: 'info',
    description: 'pino level: fatal, error, warn, info, debug, trace or silent.',
  },
  {
    name: 'heapGrowthPercent',
    env: 'SEARCH_LAYER_HEAP_GROWTH_PERCENT',
    default: '50',
    description:
      "How far V8 may grow the heap past the data still alive after each full collection, in percent (0: V8's own choice, which lets a busy server's RSS reach 300 MB and more). Applied by startServer, process-wide; node --heap-growing-percent on the command line wins.",
  },
]

// Defined beside the authenticator, which settings depend on (keyIdentity), so the two never import each other.
export type { ApiKey }
export { parseApiKeys }

/** Every server setting, resolved. */
export interface ServerOptions {
  port: number
  host: string
  /** Host names accepted besides loopback ones (`.example.com`: the domain and its subdomains); `true`: no Host check. */
  allowedHosts: AllowedHosts
  /** Empty: auth is off. */
  apiKeys: ApiKey[]
  redisUrl?: string
  redisPrefix: string
  redisTimeoutMs: number
  dataDir: string
  historyMax: number
  /** Requests per client per window; 0 turns the limit off. */
  clientRateLimit: number
  clientRateWindowMs: number
  bodyLimitBytes: number
  maxQueryChars: number
  requestTimeoutMs: number
  shutdownTimeoutMs: number
  providerTimeoutMs: number
  /** Deadline of one page fetch (`/v1/fetch`): download and reading together. */
  fetchTimeoutMs: number
  /** Cache-miss searches running at once; later ones queue in arrival order. 0 = no limit. */
  maxConcurrentSearches: number
  /** Requests per second per provider, or `false` for no provider rate limits; absent = engine defaults. */
  providerRateLimits?: Partial<Record<ProviderName, number>> | false
  monthlyBudgets?: Partial<Record<ProviderName, number>>
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** V8's heap growing factor past the live data, in percent, set by `startServer`; 0 leaves V8's own. */
  heapGrowthPercent: number
}

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max)

/** Where history lives without Redis: `SEARCH_LAYER_DATA_DIR`, else `$XDG_DATA_HOME/search-layer`, else `~/.local/share/search-layer`. */
export function defaultDataDir(env: Env): string {
  if (env.SEARCH_LAYER_DATA_DIR) return env.SEARCH_LAYER_DATA_DIR
  return join(env.XDG_DATA_HOME ?? join(env.HOME ?? homedir(), '.local', 'share'), 'search-layer')
}

const providerPairs = z.string().transform((value, ctx) => {
  const out: Partial<Record<ProviderName, number>> = {}
  for (const pair of value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [provider, raw] = pair.split('=')
    const n = Number(raw)
    // Which ids exist is the registry's business: createApp checks these against the layer's providers.
    if (!provider || !ProviderNameSchema.safeParse(provider).success || !Number.isFinite(n) || n <= 0) {
      ctx.addIssue({
        code: 'custom',
        message: `expected "provider=20,other=5" with provider ids and positive numbers (got "${pair}")`,
      })
      return z.NEVER
    }
    out[provider as ProviderName] = n
  }
  return out
})

const ServerOptionsSchema = z.object({
  port: int(0, 65_535).default(8787),
  host: z
    .string()
    .refine(isHostOrAddress, {
      error: (issue) =>
        `expected an IP address (127.0.0.1, 0.0.0.0, ::1) or a host name, without scheme or port (got ${JSON.stringify(issue.input)})`,
    })
    .default('127.0.0.1'),
  // A string from the variable or flag, an array or `true` from code; the same parser checks all three.
  allowedHosts: z
    .union([z.string(), z.array(z.string()), z.literal(true)])
    .transform((value, ctx): AllowedHosts => {
      try {
        return parseAllowedHosts(value)
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message })
        return z.NEVER
      }
    })
    .default([]),
  apiKeys: z
    .array(z.object({ name: z.string().min(1), key: z.string().min(8, 'API keys must be at least 8 characters') }))
    .default([]),
  redisUrl: z
    .string()
    .regex(/^rediss?:\/\//, 'expected redis://host:port or rediss://host:port')
    .optional(),
  redisPrefix: z.string().default('search-layer:'),
  redisTimeoutMs: int(10, 10_000).default(250),
  dataDir: z.string().min(1),
  historyMax: int(1, 100_000).default(1000),
  clientRateLimit: int(0, 1_000_000).default(60),
  clientRateWindowMs: int(100, 86_400_000).default(60_000),
  bodyLimitBytes: int(256, 64 * 1024 * 1024).default(65_536),
  maxQueryChars: int(1, MAX_QUERY_CHARS).default(500),
  requestTimeoutMs: int(100, 600_000).default(30_000),
  shutdownTimeoutMs: int(0, 600_000).default(10_000),
  providerTimeoutMs: int(100, 120_000).default(8000),
  fetchTimeoutMs: int(100, 600_000).default(20_000),
  maxConcurrentSearches: int(0, 100_000).default(32),
  providerRateLimits: z.union([z.literal(false), z.record(ProviderNameSchema, z.number().positive())]).optional(),
  monthlyBudgets: z.record(ProviderNameSchema, z.number().positive()).optional(),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  heapGrowthPercent: int(0, 1000).default(50),
})

/**
 * Resolves the server settings from env vars, with `overrides` (CLI flags) winning. Provider rate limits and budgets
 * must name one of `providerIds` (default the built-in providers; pass plug-ins' too).
 * Throws `ConfigError` naming the env var (or flag) of the first bad value.
 */
export function serverOptionsFromEnv(
  env: Env = process.env,
  overrides: Partial<ServerOptions> = {},
  providerIds: readonly string[] = builtInProviders.map((d) => d.id),
): ServerOptions {
  const raw: Record<string, unknown> = {}
  const problems: string[] = []
  for (const setting of SERVER_SETTINGS) {
    const value = env[setting.env]
    // Empty is "unset" for every setting but the keys: an empty SEARCH_LAYER_API_KEYS is refused, never "no auth".
    if (value === undefined || (value === '' && setting.name !== 'apiKeys')) continue
    try {
      if (setting.name === 'apiKeys') raw.apiKeys = parseApiKeys(value)
      else if (setting.name === 'providerRateLimits')
        raw.providerRateLimits =
          value === 'off' || value === '0' ? false : parseProviderPairs(setting.env, value, providerIds)
      else if (setting.name === 'monthlyBudgets')
        raw.monthlyBudgets = parseProviderPairs(setting.env, value, providerIds)
      else raw[setting.name] = value
    } catch (error) {
      if (error instanceof ConfigError) problems.push(error.message)
      else throw error
    }
  }
  if (problems.length) throw new ConfigError(problems.join('; '))
  const merged = { ...raw, dataDir: defaultDataDir(env), ...stripUndefined(overrides) }
  const parsed = ServerOptionsSchema.safeParse(merged)
  if (!parsed.success) {
    const messages = relevantIssues(parsed.error.issues).map((issue) => {
      const field = String(issue.path[0] ?? '')
      const setting = SERVER_SETTINGS.find((s) => s.name === field)
      const fromOverride = field in overrides && (overrides as Record<string, unknown>)[field] !== undefined
      const where = setting ? (fromOverride ? (setting.flag ?? field) : setting.env) : field
      return `${where}: ${issue.message}`
    })
    throw new ConfigError(`Invalid server settings: ${messages.join('; ')}`, {
      field: String(parsed.error.issues[0]?.path[0] ?? ''),
    })
  }
  return parsed.data as ServerOptions
}

/** Fills in defaults for options given in code (`createApp`, `startServer`); throws `ConfigError` like `serverOptionsFromEnv`. */
export function resolveServerOptions(options: Partial<ServerOptions>, env: Env): ServerOptions {
  const parsed = ServerOptionsSchema.safeParse({ dataDir: defaultDataDir(env), ...stripUndefined(options) })
  if (!parsed.success) {
    throw new ConfigError(
      `Invalid server options: ${formatIssues(parsed.error)
        .map((i) => `${i.path}: ${i.message}`)
        .join('; ')}`,
    )
  }
  return parsed.data as ServerOptions
}

function parseProviderPairs(
  name: string,
  value: string,
  providerIds: readonly string[],
): Partial<Record<ProviderName, number>> {
  const parsed = providerPairs.safeParse(value)
  if (!parsed.success)
    throw new ConfigError(`${name}: ${parsed.error.issues[0]?.message ?? 'invalid'}`, { field: name })
  const unknown = Object.keys(parsed.data).find((id) => !providerIds.includes(id))
  if (unknown !== undefined)
    throw new ConfigError(`${name}: unknown provider "${unknown}"; registered providers: ${providerIds.join(', ')}`, {
      field: name,
    })
  return parsed.data
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}
