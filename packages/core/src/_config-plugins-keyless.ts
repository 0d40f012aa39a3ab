// The file-wide settings beside the services: the `plugins` list and the keyless switch.
import { loadConfigFileIfChanged } from './_config-cache.js'
import { type FileOptions, type ResolveConfigOptions, fittingReading, pathsFor } from './_config-reading.js'
import { toConfigError } from './_config-shared.js'
import { envSwitch } from './env-switch.js'

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

/**
 * Whether keyless sources (no key needed: DuckDuckGo, Wikipedia, a SearXNG instance…) may be used. Default yes;
 * `SEARCH_LAYER_KEYLESS=off` (or `0`, `false`) says no and wins over the config file's `"keyless": false`. Throws
 * `ConfigError` naming the variable or field for any other value.
 */
export function keylessSourcesEnabled(options: FileOptions & Pick<ResolveConfigOptions, 'reading'> = {}): boolean {
  const fromEnv = envSwitch(options.env ?? process.env, KEYLESS_ENV)
  if (fromEnv !== undefined) return fromEnv
  const [primary] = pathsFor(options)
  const loaded = primary ? primaryFile(options, primary) : undefined
  const problem = loaded?.problems.find((p) => p.field?.startsWith('keyless'))
  if (problem) throw toConfigError(problem)
  return loaded?.data?.keyless ?? true
}
