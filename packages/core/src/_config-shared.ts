// What every part of the configuration shares: the config file's schema, the types of settings and problems, and
// turning a problem into a ConfigError. It imports no other part, so each part can import it without a circle.
import { z } from 'zod'
import { isPluginSpecifier } from './_plugin-specifier.js'
import { ConfigError } from './errors.js'
import { lazySchema } from './lazy-schema.js'

/** The environment variables a service (a provider, or GitHub for thread-fetch) reads, its defaults applied. */
export interface ServiceEnvVariables {
  /** Variables holding the key, first wins; the first is the one "not configured" messages name. Empty when keyless. */
  apiKey: readonly string[]
  /** The variable overriding the base URL, e.g. `BRAVE_API_URL`; absent when only options and files set one. */
  baseUrl?: string
  /** The variable choosing a model, for providers that take one (e.g. `GROK_MODEL`). */
  model?: string
}

/**
 * What config resolution needs to know about a service. A resolved provider definition has all of it
 * (`ResolvedProviderDefinition` is built on these fields); it is written here so that config never imports the
 * provider contract, which names config's `ConfigReading`.
 */
export interface ServiceSpec {
  id: string
  env: ServiceEnvVariables
  /** The upstream base URL when neither options, env nor config file name another; absent for a source without HTTP. */
  defaultBaseUrl?: string
  /** The model when the provider takes one and none is configured. */
  defaultModel?: string
}

// Built with the first config file read (lazySchema): a search with no config file builds none of it.
const configEntrySchema = () =>
  // The original skill's credentials file stores some keys as bare strings: {"exa": "..."}.
  z.union(
    [
      z.string(),
      z.looseObject({
        // A list is a key pool, like `BRAVE_API_KEY=key1,key2`.
        apiKey: z.union([z.string(), z.array(z.string())], { error: 'expected a key, or a list of keys' }).optional(),
        apiUrl: z.string().optional(),
        model: z.string().optional(),
        token: z.string().optional(),
      }),
    ],
    { error: 'expected a key, or an object with apiKey, apiUrl, model or token' },
  )

type ConfigEntry = z.infer<ReturnType<typeof configEntrySchema>>

/**
 * The config file's shape (ours and the original skill's `~/.openclaw/credentials/search.json`): `plugins` lists
 * provider packages to load; `"keyless": false` turns keyless sources off (as `SEARCH_LAYER_KEYLESS=off` does);
 * every other key is a provider id (or `github`) with its key and settings. Public as `ConfigFileSchema`.
 */
export const configFileSchema = lazySchema(() =>
  z
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
    .catchall(configEntrySchema()),
)
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
  /** Absent when none is configured and the service has no default (a source that speaks no HTTP). */
  baseUrl?: string
  baseUrlSource: ConfigSource
  /** Present when the service takes a model (`ServiceSpec.env.model`). */
  model?: string
  modelSource?: ConfigSource
}

export interface ResolvedConfig {
  /** Each requested service (`services` option) by id. */
  services: Record<string, ServiceConfig>
  github: ServiceConfig & { baseUrl: string }
  /** The files that were read, in precedence order (missing ones are not listed). */
  files: string[]
}

/** Explicit settings by service id; they win over everything else. */
export type ConfigOverrides = Partial<Record<string, { apiKey?: string; baseUrl?: string; model?: string }>>

// A problem with the whole file concerns every service; which ones exist is known only when resolving, where this
// marker is replaced by their ids.
export const EVERY_SERVICE: readonly ConfigService[] = Object.freeze([])
export const concerns = (problem: ConfigProblem, id: string) =>
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

export const toConfigError = (problem: ConfigProblem, message = problem.message): ConfigError =>
  new ConfigError(message, {
    ...(problem.file !== undefined && { file: problem.file }),
    ...(problem.field !== undefined && { field: problem.field }),
    ...(problem.variable !== undefined && { variable: problem.variable }),
  })

/** A config file as far as it is usable: each service's entry is checked on its own, so one bad entry costs only that service. */
export interface LoadedConfigFile {
  data?: ConfigFile
  problems: ConfigProblem[]
}
