import { type Stats, readFileSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { ConfigError } from './errors.js'
import type { Env } from './provider.js'

/** Default upstream base URLs; every one can be overridden (tests, self-hosted proxies). */
export const DEFAULT_BASE_URLS = {
  brave: 'https://api.search.brave.com',
  exa: 'https://api.exa.ai',
  tavily: 'https://api.tavily.com',
  grok: 'https://api.x.ai/v1',
  github: 'https://api.github.com',
} as const

/** A current xAI model that supports server-side web search (grok-4-fast was retired on 2026-05-15). */
export const DEFAULT_GROK_MODEL = 'grok-4.3'

const entryObject = z.looseObject({
  apiKey: z.string().optional(),
  apiUrl: z.string().optional(),
  model: z.string().optional(),
  token: z.string().optional(),
})
// The original skill's credentials file stores some keys as bare strings: {"exa": "..."}.
const entry = z.union([z.string(), entryObject])

/** The config file's shape (ours and the original skill's `~/.openclaw/credentials/search.json`). */
export const ConfigFileSchema = z.looseObject({
  brave: entry.optional(),
  exa: entry.optional(),
  tavily: entry.optional(),
  grok: entry.optional(),
  github: entry.optional(),
})
export type ConfigFile = z.infer<typeof ConfigFileSchema>

export type ConfigService = 'brave' | 'exa' | 'tavily' | 'grok' | 'github'
type Service = ConfigService

/** Where a setting came from, e.g. `options`, `env:EXA_API_KEY`, `file:/home/me/.config/search-layer/config.json`. */
export type ConfigSource = string

export interface ServiceConfig {
  /** The key or token; absent when none is configured. */
  apiKey?: string
  apiKeySource?: ConfigSource
  baseUrl: string
  baseUrlSource: ConfigSource
}

export interface ResolvedConfig {
  brave: ServiceConfig
  exa: ServiceConfig
  tavily: ServiceConfig
  grok: ServiceConfig & { model: string; modelSource: ConfigSource }
  github: ServiceConfig
  /** The files that were read, in precedence order (missing ones are not listed). */
  files: string[]
}

/** Explicit settings; they win over everything else. */
export type ConfigOverrides = Partial<Record<Service, { apiKey?: string; baseUrl?: string; model?: string }>>

export interface ResolveConfigOptions {
  overrides?: ConfigOverrides
  /** Defaults to `process.env`, read at call time. */
  env?: Env
  /** The config file; defaults to `SEARCH_LAYER_CONFIG` or `~/.config/search-layer/config.json`. */
  configFile?: string
  /** Home directory for the default file locations; defaults to `HOME` or `os.homedir()`. */
  homeDir?: string
}

const ENV_KEYS: Record<Service, readonly string[]> = {
  brave: ['BRAVE_API_KEY'],
  exa: ['EXA_API_KEY'],
  tavily: ['TAVILY_API_KEY'],
  grok: ['XAI_API_KEY', 'GROK_API_KEY'],
  github: ['GITHUB_TOKEN', 'GH_TOKEN'],
}
const ENV_URLS: Record<Service, string> = {
  brave: 'BRAVE_API_URL',
  exa: 'EXA_API_URL',
  tavily: 'TAVILY_API_URL',
  grok: 'GROK_API_URL',
  github: 'GITHUB_API_URL',
}

/**
 * Validates a parsed config file. Pure: throws `ConfigError` naming the file and the field.
 */
export function validateConfigFile(data: unknown, file: string): ConfigFile {
  const parsed = ConfigFileSchema.safeParse(data)
  if (parsed.success) return parsed.data
  const issue = deepestIssue(parsed.error.issues)
  const field = issue?.path.map(String).join('.') || '(root)'
  throw new ConfigError(
    `Config file ${file}: field \`${field}\` is invalid (${issue?.message ?? 'unexpected value'}); expected a string key or an object like {"apiKey": "...", "apiUrl": "https://..."}.`,
    { file, field },
  )
}

type Issue = { path: PropertyKey[]; message: string; errors?: Issue[][] }

// A union reports one issue at the union's path; the useful one is the deepest inside its branches.
function deepestIssue(issues: readonly Issue[], prefix: PropertyKey[] = []): Issue | undefined {
  let best: Issue | undefined
  for (const issue of issues) {
    const here = { ...issue, path: [...prefix, ...issue.path] }
    const nested = issue.errors?.flatMap((branch) => deepestIssue(branch, here.path) ?? [])
    for (const candidate of [here, ...(nested ?? [])])
      if (!best || candidate.path.length > best.path.length) best = candidate
  }
  return best
}

/** Reads and validates a config file; a missing file is `undefined`, a malformed one a `ConfigError`. */
export function readConfigFile(file: string): ConfigFile | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    throw new ConfigError(`Config file ${file} cannot be read (${code ?? 'unknown error'}).`, { file, cause: error })
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new ConfigError(`Config file ${file} is not valid JSON: ${(error as Error).message}.`, { file, cause: error })
  }
  return validateConfigFile(data, file)
}

interface CachedConfigFile {
  stats: Pick<Stats, 'mtimeMs' | 'ctimeMs' | 'size' | 'ino'>
  data: ConfigFile | undefined
}
const configFileCache = new Map<string, CachedConfigFile>()
const MAX_CACHED_CONFIG_FILES = 64

/**
 * `readConfigFile` for `resolveConfig`, which runs on every provider call: a `stat` decides whether the
 * file changed since it was last parsed, so an edit is still seen at once, but an unchanged (or missing)
 * file costs no read, JSON parse, schema check or ENOENT exception.
 */
function readConfigFileIfChanged(file: string): ConfigFile | undefined {
  let stats: Stats | undefined
  try {
    stats = statSync(file, { throwIfNoEntry: false })
  } catch {
    // ENOTDIR, EACCES…: readConfigFile gives the answer (or the ConfigError) it always gave.
    return readConfigFile(file)
  }
  if (!stats) {
    configFileCache.delete(file)
    return undefined
  }
  if (!stats.isFile()) return readConfigFile(file)
  const hit = configFileCache.get(file)
  if (
    hit &&
    hit.stats.mtimeMs === stats.mtimeMs &&
    hit.stats.ctimeMs === stats.ctimeMs &&
    hit.stats.size === stats.size &&
    hit.stats.ino === stats.ino
  ) {
    return hit.data
  }
  const data = readConfigFile(file)
  if (configFileCache.size >= MAX_CACHED_CONFIG_FILES) configFileCache.delete(configFileCache.keys().next().value!)
  configFileCache.set(file, {
    stats: { mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, size: stats.size, ino: stats.ino },
    data,
  })
  return data
}

/** The config files consulted, highest precedence first. */
export function configFilePaths(options: Pick<ResolveConfigOptions, 'env' | 'configFile' | 'homeDir'> = {}): string[] {
  return [...pathsFor(options)]
}

// Every provider call resolves its config: the paths are joined once per distinct input, not on every call.
let lastPaths: { configFile?: string; xdg?: string; home: string; paths: readonly string[] } | undefined

function pathsFor(options: Pick<ResolveConfigOptions, 'env' | 'configFile' | 'homeDir'>): readonly string[] {
  const env = options.env ?? process.env
  const home = options.homeDir ?? env.HOME ?? homedir()
  const configFile = options.configFile ?? env.SEARCH_LAYER_CONFIG
  const xdg = env.XDG_CONFIG_HOME
  if (lastPaths && lastPaths.configFile === configFile && lastPaths.xdg === xdg && lastPaths.home === home)
    return lastPaths.paths
  const primary = configFile ?? join(xdg ?? join(home, '.config'), 'search-layer', 'config.json')
  const paths = Object.freeze([primary, join(home, '.openclaw', 'credentials', 'search.json')])
  lastPaths = { configFile, xdg, home, paths }
  return paths
}

function fileValue(file: ConfigFile, service: Service, field: 'apiKey' | 'apiUrl' | 'model'): string | undefined {
  const value = file[service]
  if (value === undefined) return undefined
  if (typeof value === 'string') return field === 'apiKey' ? value || undefined : undefined
  const raw = field === 'apiKey' ? (value.apiKey ?? value.token) : value[field]
  return raw || undefined
}

function checkUrl(url: string, source: ConfigSource, field: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new ConfigError(`${field} from ${source} is not a URL: expected something like https://api.example.com.`, {
      field,
    })
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError(`${field} from ${source} must be an http(s) URL, got ${parsed.protocol}.`, { field })
  }
  return url.replace(/\/+$/, '')
}

/** The config files and lookups one resolution shares between the services it resolves. */
function resolver(options: ResolveConfigOptions) {
  const env = options.env ?? process.env
  const overrides = options.overrides ?? {}
  const files: { path: string; data: ConfigFile }[] = []
  for (const path of pathsFor(options)) {
    const data = readConfigFileIfChanged(path)
    if (data) files.push({ path, data })
  }

  const pick = (service: Service, field: 'apiKey' | 'apiUrl' | 'model', envNames: readonly string[]) => {
    const explicit = overrides[service]?.[field === 'apiUrl' ? 'baseUrl' : field]
    if (explicit) return { value: explicit, source: 'options' }
    for (const name of envNames) {
      const value = env[name]
      if (value) return { value, source: `env:${name}` }
    }
    for (const file of files) {
      const value = fileValue(file.data, service, field)
      if (value) return { value, source: `file:${file.path}` }
    }
    return undefined
  }

  const service = (name: Service): ServiceConfig => {
    const key = pick(name, 'apiKey', ENV_KEYS[name])
    const url = pick(name, 'apiUrl', [ENV_URLS[name]])
    const baseUrl = url ? checkUrl(url.value, url.source, `${name} base URL`) : DEFAULT_BASE_URLS[name]
    return {
      ...(key && { apiKey: key.value, apiKeySource: key.source }),
      baseUrl,
      baseUrlSource: url?.source ?? 'default',
    }
  }

  const resolve = <S extends Service>(name: S): ResolvedConfig[S] => {
    if (name !== 'grok') return service(name) as ResolvedConfig[S]
    const model = pick('grok', 'model', ['GROK_MODEL'])
    return {
      ...service('grok'),
      model: model?.value ?? DEFAULT_GROK_MODEL,
      modelSource: model?.source ?? 'default',
    } as ResolvedConfig[S]
  }
  return { resolve, files }
}

/**
 * Resolves keys and endpoints at call time. Precedence: explicit options, environment variables,
 * the config file, then the original skill's credentials file. Throws `ConfigError` for malformed files or URLs.
 */
export function resolveConfig(options: ResolveConfigOptions = {}): ResolvedConfig {
  const { resolve, files } = resolver(options)
  return {
    brave: resolve('brave'),
    exa: resolve('exa'),
    tavily: resolve('tavily'),
    grok: resolve('grok'),
    github: resolve('github'),
    files: files.map((f) => f.path),
  }
}

/**
 * `resolveConfig(options)[name]`, resolving that one service only: what a provider call needs, and a malformed
 * URL configured for another service is not this one's error.
 */
export function resolveServiceConfig<S extends Service>(
  name: S,
  options: ResolveConfigOptions = {},
): ResolvedConfig[S] {
  return resolver(options).resolve(name)
}

export interface ServiceDescription {
  name: Service
  configured: boolean
  /** `set (N chars)` or null: never any part of the key. */
  key: string | null
  keySource: ConfigSource | null
  baseUrl: string
  baseUrlSource: ConfigSource
  model?: string
}

/** Lists what is configured, keys redacted (only whether each is set and where it came from). */
export function describeConfig(config: ResolvedConfig): ServiceDescription[] {
  return (['brave', 'exa', 'tavily', 'grok', 'github'] as const).map((name) => {
    const s = config[name]
    return {
      name,
      configured: Boolean(s.apiKey),
      key: s.apiKey ? `set (${s.apiKey.length} chars)` : null,
      keySource: s.apiKeySource ?? null,
      baseUrl: redactUrl(s.baseUrl),
      baseUrlSource: s.baseUrlSource,
      ...(name === 'grok' && { model: config.grok.model }),
    }
  })
}

// A base URL may carry credentials (user:pass@ or ?key=); show neither.
function redactUrl(url: string): string {
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
