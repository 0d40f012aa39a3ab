// Where the config files are, reading them at one moment (`ConfigReading`), and resolving a service against them.
import { homedir } from 'node:os'
import { join } from 'node:path'
import { loadConfigFileIfChanged } from './_config-cache.js'
import { fileValue } from './_config-file.js'
import {
  type ConfigFile,
  type ConfigOverrides,
  type ConfigProblem,
  EVERY_SERVICE,
  type LoadedConfigFile,
  type ServiceConfig,
  type ServiceSpec,
} from './_config-shared.js'
import { checkUrl } from './_config-url.js'
import { splitApiKeys } from './api-keys.js'
import type { Env } from './env.js'

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

/** The config files consulted, highest precedence first. */
export function configFilePaths(options: Pick<ResolveConfigOptions, 'env' | 'configFile' | 'homeDir'> = {}): string[] {
  return [...pathsFor(options)]
}

// Every provider call resolves its config: the paths are joined once per distinct input, not on every call.
let lastPaths: { configFile?: string; xdg?: string; home: string; paths: readonly string[] } | undefined

export function pathsFor(options: Pick<ResolveConfigOptions, 'env' | 'configFile' | 'homeDir'>): readonly string[] {
  const env = options.env ?? process.env
  const home = options.homeDir ?? (env.HOME || homedir())
  const configFile = options.configFile ?? env.SEARCH_LAYER_CONFIG
  // An empty XDG_CONFIG_HOME is unset (XDG Base Directory spec), not a path relative to the working directory.
  const xdg = env.XDG_CONFIG_HOME || undefined
  if (lastPaths && lastPaths.configFile === configFile && lastPaths.xdg === xdg && lastPaths.home === home)
    return lastPaths.paths
  const primary = configFile ?? join(xdg ?? join(home, '.config'), 'search-layer', 'config.json')
  const paths = Object.freeze([primary, join(home, '.openclaw', 'credentials', 'search.json')])
  lastPaths = { configFile, xdg, home, paths }
  return paths
}

export type FileOptions = Pick<ResolveConfigOptions, 'env' | 'configFile' | 'homeDir'>

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
export const fittingReading = (options: FileOptions & Pick<ResolveConfigOptions, 'reading'>) =>
  options.reading?.fits(options) ? options.reading : undefined

/** The options' reading when it fits them, else a fresh one. */
export const readingFor = (options: ResolveConfigOptions): ConfigReading =>
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
    const url = pick(spec.id, 'apiUrl', spec.env.baseUrl ? [spec.env.baseUrl] : [])
    const checked = url ? checkUrl(url.value, url.source, spec) : undefined
    const valid = checked?.problem === undefined && url && checked
    const model = spec.env.model ? pick(spec.id, 'model', [spec.env.model]) : undefined
    return {
      config: {
        ...(key && keys[0] !== undefined && { apiKey: keys[0], apiKeys: keys, apiKeySource: key.source }),
        ...((valid || spec.defaultBaseUrl) && { baseUrl: valid ? valid.url : spec.defaultBaseUrl }),
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
