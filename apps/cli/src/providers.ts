import {
  type Env,
  type ProviderDefinition,
  checkProviderDefinitions,
  configuredPlugins,
  loadProviderPlugins,
} from '@search-layer/core'
import { builtInProviders } from '@search-layer/engine'
import { dirname } from 'node:path'

/**
 * The providers of this run: the built-in ones plus the plug-ins the config file lists (`"plugins": [...]`),
 * resolved from the config file's directory, then the working directory. Throws `ConfigError` naming a broken
 * plug-in or a duplicated id.
 */
export async function loadProviders(env: Env, cwd = process.cwd()): Promise<ProviderDefinition[]> {
  const { plugins, file } = configuredPlugins({ env })
  if (plugins.length === 0) return [...builtInProviders]
  const extra = await loadProviderPlugins(plugins, {
    resolveFrom: file ? [dirname(file), cwd] : [cwd],
    ...(file && { file }),
  })
  return checkProviderDefinitions(
    [...builtInProviders, ...extra],
    [...builtInProviders.map((d) => `built-in provider ${d.id}`), ...extra.map((d) => `plug-in provider ${d.id}`)],
    { trusted: new Set(builtInProviders) },
  )
}
