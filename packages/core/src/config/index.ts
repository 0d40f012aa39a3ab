// `@search-layer/core/config`: where settings come from. Config files (reading, validating, permissions), call-time
// resolution of each service's key, URL and model from options, env and files, inspection and description for the
// apps, API-key pools, loading provider plug-ins named in the config file, and reading the files settings and state
// live in with a bound (no file a user points at, nor one kept between runs, is read without one).
export {
  resolveConfig,
  resolveServiceConfig,
  inspectConfig,
  describeConfig,
  validateConfigFile,
  readConfigFile,
  configFilePaths,
  ConfigFileSchema,
  configuredPlugins,
  keylessSourcesEnabled,
  readConfigFiles,
  GITHUB_SERVICE,
} from '../config.js'
export type {
  ResolvedConfig,
  ResolveConfigOptions,
  ConfigOverrides,
  ConfigFile,
  ConfigSource,
  ServiceConfig,
  ServiceDescription,
  ConfigProblem,
  ConfigProblemKind,
  ConfigInspection,
  ServiceSpec,
  ResolveServicesOptions,
  ConfigReading,
  LoadedConfigFile,
} from '../config.js'
export { splitApiKeys, apiKeyId, apiKeyLabel } from '../api-keys.js'
export { envSwitch } from '../env-switch.js'
export { switchMessage, switchValue } from '../switch-words.js'
export { FileNotReadError, readBoundedTextFile, readBoundedTextFileSync } from '../bounded-file.js'
export { loadProviderPlugins } from '../plugins.js'
export type { LoadProviderPluginsOptions } from '../plugins.js'
