// Call-time resolution and inspection of the configuration, and the module the rest of core imports config from.
// The parts live beside it: _config-shared (schema and types), _config-file (parsing one file), _config-permissions,
// _config-cache (the stat cache), _config-url, _config-reading (file locations, ConfigReading, resolving one
// service), _config-plugins-keyless and _config-describe.
import { type ResolveConfigOptions, readingFor } from './_config-reading.js'
import {
  type ConfigInspection,
  type ResolvedConfig,
  type ServiceConfig,
  type ServiceSpec,
  EVERY_SERVICE,
  concerns,
  toConfigError,
} from './_config-shared.js'

export { ConfigFileSchema } from './config-file-schema.js'
export type {
  ConfigFile,
  ConfigInspection,
  ConfigOverrides,
  ConfigProblem,
  ConfigProblemKind,
  ConfigSource,
  LoadedConfigFile,
  ResolvedConfig,
  ServiceConfig,
  ServiceSpec,
} from './_config-shared.js'
export { readConfigFile, validateConfigFile } from './_config-file.js'
export { ConfigReading, type ResolveConfigOptions, configFilePaths, readConfigFiles } from './_config-reading.js'
export { configuredPlugins, keylessSourcesEnabled } from './_config-plugins-keyless.js'
export { type ServiceDescription, describeConfig } from './_config-describe.js'

/**
 * GitHub, for thread-fetch. The `github` search provider has the same id and variables, so one `github` entry (and
 * one `GITHUB_TOKEN`) serves both.
 */
export const GITHUB_SERVICE: ServiceSpec = {
  id: 'github',
  env: { apiKey: ['GITHUB_TOKEN', 'GH_TOKEN'], baseUrl: 'GITHUB_API_URL' },
  defaultBaseUrl: 'https://api.github.com',
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
    // GITHUB_SERVICE has a default base URL, so one is always resolved.
    github: resolved.get(GITHUB_SERVICE.id)! as ResolvedConfig['github'],
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
