import { type Env, type ResolvedProviderDefinition, checkProviderDefinitions } from '@search-layer/core'
import { configuredPlugins, loadProviderPlugins } from '@search-layer/core/config'
import { builtInProviders } from '@search-layer/engine'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

// The CLI's own installation: a global install (npm install -g) finds plug-ins installed globally beside it.
const CLI_DIR = dirname(fileURLToPath(import.meta.url))

/**
 * The providers of this run: the built-in ones plus the plug-ins the config file lists (`"plugins": [...]`),
 * package names resolved from the config file's directory, then the CLI's installation. Never from the working
 * directory: running the CLI inside an untrusted checkout must not let it supply a plug-in. Throws `ConfigError`
 * naming a broken plug-in or a duplicated id.
 */
export async function loadProviders(env: Env, { installDir = CLI_DIR } = {}): Promise<ResolvedProviderDefinition[]> {
  const { plugins, file } = configuredPlugins({ env })
  if (plugins.length === 0) return [...builtInProviders]
  const extra = await loadProviderPlugins(plugins, {
    resolveFrom: [...(file ? [dirname(resolve(file))] : []), installDir],
    ...(file && { file }),
  })
  return checkProviderDefinitions(
    [...builtInProviders, ...extra],
    [...builtInProviders.map((d) => `built-in provider ${d.id}`), ...extra.map((d) => `plug-in provider ${d.id}`)],
    { trusted: new Set(builtInProviders) },
  )
}
