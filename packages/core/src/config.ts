import { type Stats, readFileSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { locateJsonError } from './_json-error.js'
import { PLUGIN_SPECIFIER_ALLOWED, isPluginSpecifier } from './_plugin-specifier.js'
import { apiKeyLabel, splitApiKeys } from './api-keys.js'
import { ConfigError } from './errors.js'
import type { ProviderDefinition } from './provider-definition.js'
import type { Env } from './provider.js'

/** What config resolution needs to know about a service: a provider definition has all of it. */
export type ServiceSpec = Pick<ProviderDefinition, 'id' | 'env' | 'defaultBaseUrl' | 'defaultModel'>

/**
 * GitHub, for thread-fetch. The `github` search provider has the same id and variables, so one `github` entry (and
 * one `GITHUB_TOKEN`) serves both.
 */
export const GITHUB_SERVICE: ServiceSpec = {
  id: 'github',
  env: { apiKey: ['GITHUB_TOKEN', 'GH_TOKEN'], baseUrl: 'GITHUB_API_URL' },
  defaultBaseUrl: 'https://api.github.com',
}

const entryObject = z.looseObject({
  // A list is a key pool, like `BRAVE_API_KEY=key1,key2`.
  apiKey: z.union([z.string(), z.array(z.string())]).optional(),
  apiUrl: z.string().optional(),
  model: z.string().optional(),
  token: z.string().optional(),
})
// The original skill's credentials file stores some keys as bare strings: {"exa": "..."}.
const entry = z.union([z.string(), entryObject])

type ConfigEntry = z.infer<typeof entry>

/**
 * The config file's shape (ours and the original skill's `~/.openclaw/credentials/search.json`): `plugins` lists
 * provider packages to load; `"keyless": false` turns keyless sources off (as `SEARCH_LAYER_KEYLESS=off` does);
 * every other key is a provider id (or `github`) with its key and settings.
 */
export const ConfigFileSchema = z
  .object({
    plugins: z
      .array(
        z
          .string()
          .min(1)
          .refine(isPluginSpecifier, {
            error: (issue) => `${JSON.stringify(issue.input)} is not a package name or an absolute path`,
          }),
      )
      .optional(),
    keyless: z.boolean().optional(),
  })
  .catchall(entry)
export type ConfigFile = { plugins?: string[]; keyless?: boolean } & {
  [id: string]: ConfigEntry | string[] | boolean | undefined
}

/** A service id: a provider id or `github`. */
export type ConfigService = string

/** Where a setting came from, e.g. `options`, `env:EXA_API_KEY`, `file:/home/me/.config/search-layer/config.json`. */
export type ConfigSource = string

export interface ServiceConfig {
  /** The key or token (the first of a pool); absent when none is configured. */
  apiKey?: string
  /** Every key of the setting, in order: `BRAVE_API_KEY=key1,key2` is a pool of two. Present when `apiKey` is. */
  apiKeys?: string[]
  apiKeySource?: ConfigSource
  baseUrl: string
  baseUrlSource: ConfigSource
  /** Present when the service takes a model (`ServiceSpec.env.model`). */
  model?: string
  modelSource?: ConfigSource
}

export interface ResolvedConfig {
  /** Each requested service (`services` option) by id. */
  services: Record<string, ServiceConfig>
  github: ServiceConfig
  /** The files that were read, in precedence order (missing ones are not listed). */
  files: string[]
}

/** Explicit settings by service id; they win over everything else. */
export type ConfigOverrides = Partial<Record<string, { apiKey?: string; baseUrl?: string; model?: string }>>

export interface ResolveConfigOptions {
  overrides?: ConfigOverrides
  /** Defaults to `process.env`, read at call time. */
  env?: Env
  /** The config file; defaults to `SEARCH_LAYER_CONFIG` or `~/.config/search-layer/config.json`. */
  configFile?: string
  /** Home directory for the default file locations; defaults to `HOME` or `os.homedir()`. */
  homeDir?: string
  /**
   * The files as `readConfigFiles` read them, resolved against instead of checking the files again. Ignored when it
   * was read for another `env`, `configFile` or `homeDir`.
   */
  reading?: ConfigReading
}

// A problem with the whole file concerns every service; which ones exist is known only when resolving, where this
// marker is replaced by their ids.
const EVERY_SERVICE: readonly ConfigService[] = Object.freeze([])
const concerns = (problem: ConfigProblem, id: string) =>
  problem.services === EVERY_SERVICE || problem.services.includes(id)

/** What can be wrong with the configuration; branch on this, never on the message. */
export type ConfigProblemKind =
  | 'file_missing'
  | 'file_unreadable'
  | 'file_syntax'
  | 'file_schema'
  | 'invalid_url'
  | 'file_permissions'

/** One thing wrong with the configuration: what, where, and what is allowed. Never contains a key. */
export interface ConfigProblem {
  kind: ConfigProblemKind
  /** An `error` left a setting out (the rest is still used); a `warning` changed nothing. */
  severity: 'error' | 'warning'
  message: string
  /** The services whose settings it may have left out (or, for a warning, concerns). */
  services: readonly ConfigService[]
  file?: string
  /** The key path inside the file, e.g. `grok.apiUrl`. */
  field?: string
  /** The environment variable at fault, e.g. `BRAVE_API_URL` or `SEARCH_LAYER_CONFIG`. */
  variable?: string
  /** 1-based position of a JSON syntax error. */
  line?: number
  column?: number
}

/** The configuration as far as it is valid, and what is wrong with the rest. */
export interface ConfigInspection {
  /** Valid settings only: a malformed base URL falls back to the default, a malformed file is skipped. */
  config: ResolvedConfig
  problems: ConfigProblem[]
}

const toConfigError = (problem: ConfigProblem, message = problem.message): ConfigError =>
  new ConfigError(message, {
    ...(problem.file !== undefined && { file: problem.file }),
    ...(problem.field !== undefined && { field: problem.field }),
    ...(problem.variable !== undefined && { variable: problem.variable }),
  })

const ENTRY_ALLOWED =
  'a key string, or an object with string fields apiKey (or a list of keys), apiUrl, model, token, like {"apiKey": "...", "apiUrl": "https://..."} or {"apiKey": ["key1", "key2"]}'

function schemaProblem(issues: readonly Issue[], file: string, services: readonly ConfigService[]): ConfigProblem {
  const issue = deepestIssue(issues)
  const field = issue?.path.map(String).join('.') || '(root)'
  const allowed =
    field === '(root)'
      ? `a JSON object keyed by service (a provider id or github, plus "plugins", a list of packages, and "keyless", true or false), each ${ENTRY_ALLOWED}`
      : issue?.path[0] === 'plugins'
        ? `a list of ${PLUGIN_SPECIFIER_ALLOWED}`
        : issue?.path[0] === 'keyless'
          ? 'true or false (false turns keyless sources off)'
          : issue && issue.path.length > 1
            ? issue.path[1] === 'apiKey'
              ? 'a key string or a list of key strings'
              : 'a string'
            : ENTRY_ALLOWED
  return {
    kind: 'file_schema',
    severity: 'error',
    message: `Config file ${file}: field \`${field}\` is invalid (${issue?.message ?? 'unexpected value'}); expected ${allowed}.`,
    services,
    file,
    field,
  }
}

/**
 * Validates a parsed config file. Pure: throws `ConfigError` naming the file and the field.
 */
export function validateConfigFile(data: unknown, file: string): ConfigFile {
  const parsed = ConfigFileSchema.safeParse(data)
  if (parsed.success) return parsed.data
  throw toConfigError(schemaProblem(parsed.error.issues, file, EVERY_SERVICE))
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

/** A config file as far as it is usable: each service's entry is checked on its own, so one bad entry costs only that service. */
export interface LoadedConfigFile {
  data?: ConfigFile
  problems: ConfigProblem[]
}

function parseConfigText(text: string, file: string): LoadedConfigFile {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    const at = locateJsonError(text)
    const where = at ? ` at line ${at.line}, column ${at.column}: ${at.problem}` : ''
    return {
      problems: [
        {
          kind: 'file_syntax',
          severity: 'error',
          message: `Config file ${file} is not valid JSON${where}.`,
          services: EVERY_SERVICE,
          file,
          ...(at && { line: at.line, column: at.column }),
        },
      ],
    }
  }
  const whole = ConfigFileSchema.safeParse(data)
  if (whole.success) return { data: whole.data, problems: [] }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { problems: [schemaProblem(whole.error.issues, file, EVERY_SERVICE)] }
  const usable: Record<string, unknown> = { ...data }
  const problems: ConfigProblem[] = []
  for (const service of Object.keys(usable)) {
    const one = ConfigFileSchema.safeParse({ [service]: usable[service] })
    if (one.success) continue
    const everyService = service === 'plugins' || service === 'keyless'
    problems.push(schemaProblem(one.error.issues, file, everyService ? EVERY_SERVICE : [service]))
    delete usable[service]
  }
  return { data: ConfigFileSchema.parse(usable), problems }
}

function readProblem(file: string, error: unknown): ConfigProblem {
  const code = (error as NodeJS.ErrnoException).code
  return {
    kind: 'file_unreadable',
    severity: 'error',
    message: `Config file ${file} cannot be read (${code ?? 'unknown error'}).`,
    services: EVERY_SERVICE,
    file,
  }
}

function loadConfigFile(file: string): LoadedConfigFile | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    return { problems: [readProblem(file, error)] }
  }
  return parseConfigText(text, file)
}

/** Reads and validates a config file; a missing file is `undefined`, a malformed one a `ConfigError`. */
export function readConfigFile(file: string): ConfigFile | undefined {
  const loaded = loadConfigFile(file)
  if (!loaded) return undefined
  const first = loaded.problems[0]
  if (first) throw toConfigError(first)
  return loaded.data
}

const holdsKeys = (data: ConfigFile | undefined): ConfigService[] =>
  Object.keys(data ?? {}).filter((service) => data !== undefined && fileValue(data, service, 'apiKey') !== undefined)

// Keys in a file others can read are keys shared with every account on the machine.
function permissionsProblem(file: string, mode: number, data: ConfigFile | undefined): ConfigProblem | undefined {
  if (process.platform === 'win32' || (mode & 0o077) === 0) return undefined
  const services = holdsKeys(data)
  if (services.length === 0) return undefined
  return {
    kind: 'file_permissions',
    severity: 'warning',
    message: `Config file ${file} holds keys and can be read by other users (mode ${(mode & 0o777).toString(8)}); run: chmod 600 ${file}`,
    services,
    file,
  }
}

interface CachedConfigFile {
  stats: Pick<Stats, 'mtimeMs' | 'ctimeMs' | 'size' | 'ino' | 'mode'>
  loaded: LoadedConfigFile
}
const configFileCache = new Map<string, CachedConfigFile>()
const MAX_CACHED_CONFIG_FILES = 64

/**
 * `loadConfigFile` for the resolver, which runs on every provider call: a `stat` decides whether the
 * file changed since it was last parsed, so an edit is still seen at once, but an unchanged (or missing)
 * file costs no read, JSON parse, schema check or ENOENT exception.
 */
function loadConfigFileIfChanged(file: string): LoadedConfigFile | undefined {
  let stats: Stats | undefined
  try {
    stats = statSync(file, { throwIfNoEntry: false })
  } catch {
    // ENOTDIR, EACCES…: loadConfigFile gives the answer (or the problem) it always gave.
    return loadConfigFile(file)
  }
  if (!stats) {
    configFileCache.delete(file)
    return undefined
  }
  if (!stats.isFile()) return loadConfigFile(file)
  const hit = configFileCache.get(file)
  if (
    hit &&
    hit.stats.mtimeMs === stats.mtimeMs &&
    hit.stats.ctimeMs === stats.ctimeMs &&
    hit.stats.size === stats.size &&
    hit.stats.ino === stats.ino &&
    hit.stats.mode === stats.mode
  ) {
    return hit.loaded
  }
  const read = loadConfigFile(file)
  if (!read) return undefined
  const warning = permissionsProblem(file, stats.mode, read.data)
  const loaded = warning ? { ...read, problems: [...read.problems, warning] } : read
  if (configFileCache.size >= MAX_CACHED_CONFIG_FILES) configFileCache.delete(configFileCache.keys().next().value!)
  configFileCache.set(file, {
    stats: { mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, size: stats.size, ino: stats.ino, mode: stats.mode },
    loaded,
  })
  return loaded
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

function fileValue(file: ConfigFile, service: string, field: 'apiKey' | 'apiUrl' | 'model'): string | undefined {
  const value = file[service]
  if (value === undefined || Array.isArray(value) || typeof value === 'boolean') return undefined
  if (typeof value === 'string') return field === 'apiKey' ? value || undefined : undefined
  const raw = field === 'apiKey' ? (value.apiKey ?? value.token) : value[field]
  // A pool listed in the file reads like one in an env variable: `key1,key2`.
  if (Array.isArray(raw)) return splitApiKeys(raw).join(',') || undefined
  return raw || undefined
}

// A base URL is not a secret, but it may carry credentials (user:pass@, ?key=): show it without them.
function showUrlValue(value: string): string {
  const shown = URL.canParse(value) ? redactUrl(value) : value
  return JSON.stringify(shown.length > 120 ? `${shown.slice(0, 117)}...` : shown)
}

function checkUrl(
  url: string,
  source: ConfigSource,
  spec: ServiceSpec,
): { url: string; problem?: undefined } | { problem: ConfigProblem } {
  const service = spec.id
  const variable = source.startsWith('env:') ? source.slice(4) : undefined
  const file = source.startsWith('file:') ? source.slice(5) : undefined
  const where = `${service} base URL from ${source} (${showUrlValue(url)})`
  const allowed = `expected an http(s) URL like ${spec.defaultBaseUrl}`
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

type FileOptions = Pick<ResolveConfigOptions, 'env' | 'configFile' | 'homeDir'>

/**
 * The config files as read at one moment (`readConfigFiles`), and each service resolved against them without
 * overrides, kept as it is first asked for.
 */
export class ConfigReading {
  readonly env: Env
  /** The primary file as read (absent when it does not exist). */
  readonly primary: LoadedConfigFile | undefined
  readonly files: readonly { path: string; data: ConfigFile }[]
  readonly fileProblems: readonly ConfigProblem[]
  private readonly options: FileOptions
  private readonly services = new Map<ServiceSpec, ResolvedService>()
  private resolveFresh: ((spec: ServiceSpec) => ResolvedService) | undefined

  /** Reads the files now; `readConfigFiles` is the public way in. */
  constructor(options: FileOptions) {
    this.env = options.env ?? process.env
    this.options = { configFile: options.configFile, homeDir: options.homeDir }
    const read = readFiles(options)
    this.primary = read.primary
    this.files = read.files
    this.fileProblems = read.fileProblems
  }

  /** Whether resolving with `options` may use this reading (same env and file locations). */
  fits(options: FileOptions): boolean {
    return (
      (options.env ?? process.env) === this.env &&
      options.configFile === this.options.configFile &&
      options.homeDir === this.options.homeDir
    )
  }

  /**
   * `spec` resolved against this reading: once, and kept, when no explicit setting overrides it; with `overrides`
   * (the caller's explicit settings for this service) resolved afresh, since they are the caller's, not the reading's.
   */
  resolved(spec: ServiceSpec, overrides?: ConfigOverrides[string]): ResolvedService {
    if (overrides && Object.values(overrides).some((v) => v !== undefined))
      return serviceResolver(this.env, { [spec.id]: overrides }, this.files)(spec)
    let service = this.services.get(spec)
    if (!service) {
      this.resolveFresh ??= serviceResolver(this.env, {}, this.files)
      service = this.resolveFresh(spec)
      this.services.set(spec, service)
    }
    return service
  }
}

/**
 * Reads the config files once, for resolving many services against the same reading (`reading` in
 * `ResolveConfigOptions`, `ProviderContext.config`). A search does this once instead of each provider call checking
 * the files again; an edit is seen by the next reading.
 */
export function readConfigFiles(options: FileOptions = {}): ConfigReading {
  return new ConfigReading(options)
}

type ResolvedService = { config: ServiceConfig; problem?: ConfigProblem }

/** The options' reading when it fits them. */
const fittingReading = (options: FileOptions & Pick<ResolveConfigOptions, 'reading'>) =>
  options.reading?.fits(options) ? options.reading : undefined

/** The options' reading when it fits them, else a fresh one. */
const readingFor = (options: ResolveConfigOptions): ConfigReading =>
  fittingReading(options) ?? new ConfigReading(options)

function readFiles(options: FileOptions) {
  const env = options.env ?? process.env
  const files: { path: string; data: ConfigFile }[] = []
  const fileProblems: ConfigProblem[] = []
  const explicitBy = options.configFile ? 'configFile' : env.SEARCH_LAYER_CONFIG ? 'SEARCH_LAYER_CONFIG' : undefined
  let primary: LoadedConfigFile | undefined
  for (const [index, path] of pathsFor(options).entries()) {
    const loaded = loadConfigFileIfChanged(path)
    if (index === 0) primary = loaded
    if (loaded?.data) files.push({ path, data: loaded.data })
    if (loaded) fileProblems.push(...loaded.problems)
    else if (index === 0 && explicitBy)
      fileProblems.push({
        kind: 'file_missing',
        severity: 'error',
        message: `${explicitBy}=${path} names a config file that does not exist; create it or unset ${explicitBy}.`,
        services: EVERY_SERVICE,
        file: path,
        ...(explicitBy === 'SEARCH_LAYER_CONFIG' && { variable: 'SEARCH_LAYER_CONFIG' }),
      })
  }
  return { primary, files, fileProblems }
}

/** Resolves one service at a time from overrides, env and the files read, in that order. */
function serviceResolver(
  env: Env,
  overrides: ConfigOverrides,
  files: readonly { path: string; data: ConfigFile }[],
): (spec: ServiceSpec) => ResolvedService {
  const pick = (service: string, field: 'apiKey' | 'apiUrl' | 'model', envNames: readonly string[]) => {
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

  const resolve = (spec: ServiceSpec): ResolvedService => {
    const key = pick(spec.id, 'apiKey', spec.env.apiKey)
    const keys = splitApiKeys(key?.value)
    const url = pick(spec.id, 'apiUrl', [spec.env.baseUrl])
    const checked = url ? checkUrl(url.value, url.source, spec) : undefined
    const valid = checked?.problem === undefined && url && checked
    const model = spec.env.model ? pick(spec.id, 'model', [spec.env.model]) : undefined
    return {
      config: {
        ...(key && keys[0] !== undefined && { apiKey: keys[0], apiKeys: keys, apiKeySource: key.source }),
        baseUrl: valid ? valid.url : spec.defaultBaseUrl,
        baseUrlSource: valid ? url.source : 'default',
        ...(spec.env.model && {
          model: model?.value ?? spec.defaultModel ?? '',
          modelSource: model?.source ?? 'default',
        }),
      },
      ...(checked?.problem && { problem: checked.problem }),
    }
  }
  return resolve
}

/** Which services to resolve beside GitHub: normally the provider definitions. */
export interface ResolveServicesOptions extends ResolveConfigOptions {
  services?: readonly ServiceSpec[]
}

/**
 * Resolves what is valid in the configuration and lists what is not, instead of throwing: a malformed file is
 * skipped (a malformed entry costs only its service), a malformed base URL falls back to the default and is listed.
 */
export function inspectConfig(options: ResolveServicesOptions = {}): ConfigInspection {
  const reading = readingFor(options)
  const { files, fileProblems } = reading
  const resolve = (spec: ServiceSpec) => reading.resolved(spec, options.overrides?.[spec.id])
  const services = options.services ?? []
  // A registered `github` provider is the same service as thread-fetch's GitHub: resolved (and checked) once.
  const githubIsService = services.some((spec) => spec.id === GITHUB_SERVICE.id)
  const specs = githubIsService ? services : [...services, GITHUB_SERVICE]
  const ids = specs.map((spec) => spec.id)
  const problems = fileProblems.map((p) => (p.services === EVERY_SERVICE ? { ...p, services: ids } : p))
  const resolved = new Map(
    specs.map((spec) => {
      const { config, problem } = resolve(spec)
      if (problem) problems.push(problem)
      return [spec.id, config] as const
    }),
  )
  const config: ResolvedConfig = {
    services: Object.fromEntries(services.map((spec) => [spec.id, resolved.get(spec.id)!])),
    github: resolved.get(GITHUB_SERVICE.id)!,
    files: files.map((f) => f.path),
  }
  return { config, problems }
}

/**
 * Resolves keys and endpoints at call time for `services` (provider definitions) and GitHub. Precedence: explicit
 * options, environment variables, the config file, then the original skill's credentials file. Throws
 * `ConfigError` for a missing `SEARCH_LAYER_CONFIG` file, malformed files or URLs (`inspectConfig` lists them instead).
 */
export function resolveConfig(options: ResolveServicesOptions = {}): ResolvedConfig {
  const { config, problems } = inspectConfig(options)
  const first = problems.find((p) => p.severity === 'error')
  if (first) throw toConfigError(first)
  return config
}

/**
 * One service's settings, resolving that one only: what a provider call needs. A malformed URL configured for
 * another service is not this one's error, and neither is a broken config file when this service's key comes from
 * elsewhere: it throws `ConfigError` for its own malformed URL, and for a file problem only when no key was found.
 */
export function resolveServiceConfig(spec: ServiceSpec, options: ResolveConfigOptions = {}): ServiceConfig {
  const reading = readingFor(options)
  const { config, problem } = reading.resolved(spec, options.overrides?.[spec.id])
  const { fileProblems } = reading
  if (problem) throw toConfigError(problem)
  const fileProblem = fileProblems.find((p) => p.severity === 'error' && concerns(p, spec.id))
  if (!config.apiKey && spec.env.apiKey.length > 0 && fileProblem)
    throw toConfigError(
      fileProblem,
      `${spec.id} has no key (set ${spec.env.apiKey.join(' or ')}), and ${fileProblem.message}`,
    )
  return config
}

/**
 * The config file's `plugins` list (empty when there is no file or no list). A malformed list is a `ConfigError`;
 * other problems of the file are left to the configuration checks.
 */
export function configuredPlugins(options: FileOptions & Pick<ResolveConfigOptions, 'reading'> = {}): {
  plugins: string[]
  file?: string
} {
  const [primary] = pathsFor(options)
  if (!primary) return { plugins: [] }
  const loaded = primaryFile(options, primary)
  const problem = loaded?.problems.find((p) => p.field?.startsWith('plugins'))
  if (problem) throw toConfigError(problem)
  return { plugins: loaded?.data?.plugins ?? [], file: primary }
}

/** The primary config file: as the options' reading read it, or read now (that file alone). */
const primaryFile = (options: FileOptions & Pick<ResolveConfigOptions, 'reading'>, path: string) => {
  const reading = fittingReading(options)
  return reading ? reading.primary : loadConfigFileIfChanged(path)
}

const KEYLESS_ENV = 'SEARCH_LAYER_KEYLESS'
const KEYLESS_VALUES: Readonly<Record<string, boolean>> = {
  on: true,
  true: true,
  '1': true,
  off: false,
  false: false,
  '0': false,
}

/**
 * Whether keyless sources (no key needed: DuckDuckGo, Wikipedia, a SearXNG instance…) may be used. Default yes;
 * `SEARCH_LAYER_KEYLESS=off` (or `0`, `false`) says no and wins over the config file's `"keyless": false`. Throws
 * `ConfigError` naming the variable or field for any other value.
 */
export function keylessSourcesEnabled(options: FileOptions & Pick<ResolveConfigOptions, 'reading'> = {}): boolean {
  const env = options.env ?? process.env
  const raw = env[KEYLESS_ENV]
  if (raw !== undefined && raw !== '') {
    const value = KEYLESS_VALUES[raw.trim().toLowerCase()]
    if (value === undefined)
      throw new ConfigError(`${KEYLESS_ENV}=${JSON.stringify(raw.slice(0, 40))} is not allowed; use on or off.`, {
        variable: KEYLESS_ENV,
      })
    return value
  }
  const [primary] = pathsFor(options)
  const loaded = primary ? primaryFile(options, primary) : undefined
  const problem = loaded?.problems.find((p) => p.field?.startsWith('keyless'))
  if (problem) throw toConfigError(problem)
  return loaded?.data?.keyless ?? true
}

export interface ServiceDescription {
  name: ConfigService
  configured: boolean
  /** `set (N chars)`, `2 keys: key #1 (…a1b2), key #2 (…c3d4)` for a pool, or null: never any part of a key. */
  key: string | null
  /** How reports name each key of the pool (`key #1 (…a1b2)`); empty when none is configured. */
  keyLabels: string[]
  keySource: ConfigSource | null
  baseUrl: string
  baseUrlSource: ConfigSource
  model?: string
}

/** Lists what is configured (the services in resolution order, then GitHub unless it is one), keys redacted. */
export function describeConfig(config: ResolvedConfig): ServiceDescription[] {
  const github = 'github' in config.services ? [] : [['github', config.github] as const]
  return [...Object.entries(config.services), ...github].map(([name, s]) => ({
    name,
    configured: Boolean(s.apiKey),
    key: describeKeys(s),
    keyLabels: (s.apiKeys ?? []).map((key, i) => apiKeyLabel(i, key)),
    keySource: s.apiKeySource ?? null,
    baseUrl: redactUrl(s.baseUrl),
    baseUrlSource: s.baseUrlSource,
    ...(s.model !== undefined && { model: s.model }),
  }))
}

function describeKeys(service: ServiceConfig): string | null {
  const keys = service.apiKeys ?? (service.apiKey ? [service.apiKey] : [])
  if (keys.length === 0) return null
  if (keys.length === 1) return `set (${keys[0]!.length} chars)`
  return `${keys.length} keys: ${keys.map((key, i) => apiKeyLabel(i, key)).join(', ')}`
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
