import { lstatSync, mkdirSync } from 'node:fs'
import nodeModule, { createRequire } from 'node:module'
import { join } from 'node:path'
import type { Env } from '@search-layer/core'

const CODE_CACHE_SWITCH = 'SEARCH_LAYER_CODE_CACHE'

/**
 * `SEARCH_LAYER_CODE_CACHE` read with the house's on/off words (core's): true (on, the default), false, or the
 * message for a word that is neither. Core's words load only when the variable is set: every command starts through
 * this file, and a static import of core here put a 226 KB chunk on every command's way in, `--help`'s too.
 */
export async function codeCacheSetting(env: Env): Promise<boolean | string> {
  const raw = env[CODE_CACHE_SWITCH]
  if (raw === undefined || raw.trim() === '') return true
  const { switchMessage, switchValue } = await import('@search-layer/core/config')
  const value = switchValue(raw)
  return value === null ? switchMessage(CODE_CACHE_SWITCH, raw) : (value ?? true)
}

/**
 * The user's search-layer cache directory: the engine's `defaultCacheDir` (not imported: it would load the engine
 * before any command needs it). The code caches live under it: `code/` (src/code-cache.ts) and
 * `node-compile-cache/` (below).
 */
export function cliCacheDir(env: Env): string {
  if (env.SEARCH_LAYER_CACHE_DIR) return env.SEARCH_LAYER_CACHE_DIR
  return join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'search-layer')
}

// node:os only without HOME: every command starts through this file (cli.ts), and node:os is not loaded at start.
const homedir = (): string => (createRequire(import.meta.url)('node:os') as typeof import('node:os')).homedir()

type EnableCompileCache = (directory?: string) => unknown

/**
 * Turns on Node's module compile cache (Node >= 22.1: V8's compiled code for the bundle's ES module chunks kept
 * between runs; Node 20 has no such API and runs as before) in a folder of the user's own cache directory, not
 * Node's default `os.tmpdir()/node-compile-cache`: V8 runs what a cache file holds and checks little more than the
 * source's length, so a folder in the shared temp directory that another account made first could feed this
 * process code. The folder is made owner-only; one that is not this user's, or that others can write to, leaves
 * the cache off, and so does a folder that cannot be made (a read-only home): the cache is an optimisation only.
 * `NODE_COMPILE_CACHE` (the user's own choice of folder) is left to Node; `NODE_DISABLE_COMPILE_CACHE=1` and
 * `SEARCH_LAYER_CODE_CACHE=off` (or another word than an on word) turn it off. Returns the folder used, if any.
 */
export async function enablePrivateCompileCache(
  env: Env,
  // node:module's types are Node 20's, which has no enableCompileCache.
  node: { enableCompileCache?: EnableCompileCache } = nodeModule as { enableCompileCache?: EnableCompileCache },
): Promise<string | undefined> {
  const enable = node.enableCompileCache?.bind(node)
  if (!enable || env.NODE_DISABLE_COMPILE_CACHE || (await codeCacheSetting(env)) !== true) return undefined
  if (env.NODE_COMPILE_CACHE) {
    enable()
    return env.NODE_COMPILE_CACHE
  }
  const dir = join(cliCacheDir(env), 'node-compile-cache')
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const stat = lstatSync(dir)
    const mine = !process.getuid || stat.uid === process.getuid()
    if (!stat.isDirectory() || !mine || (stat.mode & 0o022) !== 0) return undefined
  } catch {
    return undefined
  }
  enable(dir)
  return dir
}
