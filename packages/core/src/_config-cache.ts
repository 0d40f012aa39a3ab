// The config files as last parsed, kept until a stat says they changed.
import { type Stats, statSync } from 'node:fs'
import { loadConfigFile } from './_config-file.js'
import { permissionsProblem } from './_config-permissions.js'
import type { LoadedConfigFile } from './_config-shared.js'

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
export function loadConfigFileIfChanged(file: string): LoadedConfigFile | undefined {
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
