import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { PLUGIN_SPECIFIER_ALLOWED, isPluginSpecifier } from './_plugin-specifier.js'
import { FileNotReadError, readBoundedTextFileSync } from './bounded-file.js'
import { ConfigError } from './errors.js'
import { type ResolvedProviderDefinition, validateProviderDefinition } from './provider-definition.js'

export interface LoadProviderPluginsOptions {
  /**
   * Directories package names are resolved from, in order (the config file's directory, the program's
   * installation). Default: the config file's directory when `file` is given, then this package's installation.
   * Never the working directory: a checkout the program runs in could otherwise supply a plug-in.
   */
  resolveFrom?: readonly string[]
  /** The file the list came from, named in errors. */
  file?: string
}

// This package's own installation: where a program that bundles or depends on it has its node_modules.
const OWN_INSTALLATION = dirname(fileURLToPath(import.meta.url))
// A package.json is a few KiB; 1 MiB, the same bound a config file has (_config-file.ts).
const MAX_MANIFEST_BYTES = 1024 * 1024

/**
 * Loads provider plug-ins: each entry is an npm package name (resolved from `resolveFrom`, never the working
 * directory) or an absolute path to a module whose default export is a `ProviderDefinition` or an array of them.
 * Throws `ConfigError` naming the entry and what is wrong (not a package name or absolute path, not found, failed to
 * load, no default export, an invalid definition); never returns a half-checked definition. Returns them with their
 * defaults applied.
 */
export async function loadProviderPlugins(
  specifiers: readonly string[],
  options: LoadProviderPluginsOptions = {},
): Promise<ResolvedProviderDefinition[]> {
  const loaded: ResolvedProviderDefinition[] = []
  const whereOf = (specifier: string) => `plug-in "${specifier}"${options.file ? ` (listed in ${options.file})` : ''}`
  // Every entry is checked before any code loads: a refused entry must not follow one that already ran.
  for (const specifier of specifiers) checkSpecifier(specifier, whereOf(specifier), options.file)
  const dirs = resolveDirs(options)
  for (const specifier of specifiers) {
    const where = whereOf(specifier)
    const url = resolvePlugin(specifier, dirs, where, options.file)
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

const resolveDirs = ({ resolveFrom, file }: LoadProviderPluginsOptions): string[] =>
  (resolveFrom ?? [...(file ? [dirname(file)] : []), OWN_INSTALLATION]).map((dir) => resolve(dir))

function checkSpecifier(specifier: string, where: string, file?: string): void {
  if (!isPluginSpecifier(specifier))
    throw new ConfigError(
      `${where}: "plugins" takes ${PLUGIN_SPECIFIER_ALLOWED}. Give a module's absolute path instead.`,
      { field: 'plugins', ...(file && { file }) },
    )
}

function resolvePlugin(specifier: string, resolveFrom: readonly string[], where: string, file?: string): string {
  const fileField = { field: 'plugins', ...(file && { file }) }
  if (isAbsolute(specifier)) return pathToFileURL(specifier).href
  for (const dir of resolveFrom) {
    const entry = findPackageEntry(specifier, dir, where, fileField)
    if (entry) return pathToFileURL(entry).href
  }
  throw new ConfigError(
    `${where} is not installed where it can be found (looked from ${resolveFrom.join(', ')}); install it beside the config file (npm install ${specifier}) or give its absolute path.`,
    fileField,
  )
}

// Node's resolution of a bare package name from `dir`, for ESM packages: walk up the node_modules folders and take
// the package's `exports` (import/default condition) or `main`. createRequire would miss import-only exports.
function findPackageEntry(
  name: string,
  dir: string,
  where: string,
  fileField: { field: string; file?: string },
): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const root = join(at, 'node_modules', name)
    let manifest: { exports?: unknown; main?: unknown } | undefined
    try {
      manifest = JSON.parse(readBoundedTextFileSync(join(root, 'package.json'), MAX_MANIFEST_BYTES))
    } catch (error) {
      // A pipe, device or giant file where the plug-in's package.json should be: said, not searched past.
      if (error instanceof FileNotReadError)
        throw new ConfigError(`${where}: its package.json cannot be read: ${error.reason}.`, fileField)
      manifest = undefined
    }
    if (manifest) {
      const entry = join(root, entryOf(manifest))
      // A manifest's "main": "../../x" would load code from outside the package that was named.
      const inside = relative(root, entry)
      if (inside === '' || inside.startsWith('..') || isAbsolute(inside))
        throw new ConfigError(`${where}: its package.json points outside the package (${root}).`, fileField)
      return entry
    }
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
