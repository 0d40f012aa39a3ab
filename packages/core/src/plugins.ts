import { readFileSync } from 'node:fs'
import { dirname, isAbsolute, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ConfigError } from './errors.js'
import { type ProviderDefinition, validateProviderDefinition } from './provider-definition.js'

export interface LoadProviderPluginsOptions {
  /** Directories package names are resolved from, in order (e.g. the config file's directory, then the cwd). */
  resolveFrom?: readonly string[]
  /** The file the list came from, named in errors. */
  file?: string
}

/**
 * Loads provider plug-ins: each entry is a package name or an absolute path to a module whose default export is a
 * `ProviderDefinition` or an array of them. Throws `ConfigError` naming the entry and what is wrong (not found,
 * failed to load, no default export, an invalid definition); never returns a half-checked definition.
 */
export async function loadProviderPlugins(
  specifiers: readonly string[],
  options: LoadProviderPluginsOptions = {},
): Promise<ProviderDefinition[]> {
  const loaded: ProviderDefinition[] = []
  for (const specifier of specifiers) {
    const where = `plug-in "${specifier}"${options.file ? ` (listed in ${options.file})` : ''}`
    const url = resolvePlugin(specifier, options.resolveFrom ?? [process.cwd()], where)
    let module: { default?: unknown }
    try {
      module = (await import(url)) as { default?: unknown }
    } catch (error) {
      throw new ConfigError(`${where} failed to load: ${(error as Error)?.message ?? String(error)}`, {
        field: 'plugins',
        cause: error,
        ...(options.file && { file: options.file }),
      })
    }
    const exported = module.default
    if (exported === undefined)
      throw new ConfigError(
        `${where} has no default export; export a provider definition (or an array of them) as default.`,
        { field: 'plugins', ...(options.file && { file: options.file }) },
      )
    const list = Array.isArray(exported) ? exported : [exported]
    list.forEach((value, i) => {
      loaded.push(validateProviderDefinition(value, list.length > 1 ? `${where}, export ${i}` : where))
    })
  }
  return loaded
}

function resolvePlugin(specifier: string, resolveFrom: readonly string[], where: string): string {
  if (specifier.startsWith('.'))
    throw new ConfigError(`${where}: give a package name or an absolute path, not a relative one.`, {
      field: 'plugins',
    })
  if (isAbsolute(specifier)) return pathToFileURL(specifier).href
  for (const dir of resolveFrom) {
    const entry = findPackageEntry(specifier, dir)
    if (entry) return pathToFileURL(entry).href
  }
  throw new ConfigError(
    `${where} is not installed where it can be found (looked from ${resolveFrom.join(', ')}); install it (npm install ${specifier}) or give its absolute path.`,
    { field: 'plugins' },
  )
}

// Node's resolution of a bare package name from `dir`, for ESM packages: walk up the node_modules folders and take
// the package's `exports` (import/default condition) or `main`. createRequire would miss import-only exports.
function findPackageEntry(name: string, dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const root = join(at, 'node_modules', name)
    let manifest: { exports?: unknown; main?: unknown } | undefined
    try {
      manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    } catch {
      manifest = undefined
    }
    if (manifest) return join(root, entryOf(manifest))
    if (dirname(at) === at) return undefined
  }
}

function entryOf(manifest: { exports?: unknown; main?: unknown }): string {
  const pick = (value: unknown): string | undefined => {
    if (typeof value === 'string') return value
    if (value && typeof value === 'object') {
      const conditions = value as Record<string, unknown>
      return pick(conditions['.'] ?? conditions.import ?? conditions.default ?? conditions.node)
    }
    return undefined
  }
  return pick(manifest.exports) ?? (typeof manifest.main === 'string' ? manifest.main : 'index.js')
}
