import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { rm } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { Env } from '@search-layer/core'
import { readBoundedTextFile } from '@search-layer/core/config'
import type { LRUCache } from 'lru-cache'
import { writePrivateFileAtomic } from './_private-files.js'

/** Where cached search responses live: memory, disk, or a shared store such as Redis. */
export interface CacheStore {
  get(key: string): Promise<unknown | undefined>
  set(key: string, value: unknown, ttlMs: number): Promise<void>
  delete(key: string): Promise<void>
}

/** An in-process LRU (lru-cache) with per-entry TTL. */
export function createMemoryCache({ maxEntries = 500 }: { maxEntries?: number } = {}): CacheStore {
  // Loaded on first use: evaluating lru-cache costs a fresh process ~3 ms (it reads `performance`, which loads
  // node:perf_hooks), and the CLI, which caches on disk, never needs it. Once loaded, calls use it without a wait
  // (a server answers thousands of cache hits a second from here).
  let entries: LRUCache<string, { value: unknown }> | undefined
  let loading: Promise<LRUCache<string, { value: unknown }>> | undefined
  const load = () =>
    (loading ??= import('lru-cache').then(({ LRUCache }) => {
      entries = new LRUCache({ max: maxEntries, ttlAutopurge: false })
      return entries
    }))
  return {
    async get(key) {
      const lru = entries ?? (await load())
      return lru.get(key)?.value
    },
    async set(key, value, ttlMs) {
      const lru = entries ?? (await load())
      lru.set(key, { value }, { ttl: ttlMs })
    },
    async delete(key) {
      const lru = entries ?? (await load())
      lru.delete(key)
    },
  }
}

/**
 * The user cache directory: `SEARCH_LAYER_CACHE_DIR`, else `$XDG_CACHE_HOME/search-layer`, else `~/.cache/search-layer`.
 * An empty variable is unset (XDG Base Directory spec), never a path relative to the working directory.
 */
export function defaultCacheDir(env: Env = process.env): string {
  if (env.SEARCH_LAYER_CACHE_DIR) return env.SEARCH_LAYER_CACHE_DIR
  return join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'search-layer')
}

// What one entry may hold when read back (a search's results, or read pages with their passages): past it, or for a
// pipe or device in the entry's place, the entry is a miss.
const MAX_ENTRY_BYTES = 32 * 1024 * 1024

/**
 * A disk cache for one-shot processes (the CLI): one JSON file per key, written atomically
 * (temp file + rename) so concurrent commands never read half a file. Unreadable entries are misses. New files
 * are 0600 and new directories 0700: cached answers say what the user searched for.
 */
export function createFileCache({ dir }: { dir: string }): CacheStore {
  // SHA-256 in JavaScript, not node:crypto, whose loading alone costs a fresh process more than the lookup saves
  // (~5 ms of CPU on Node 20, ~20 ms on Node 24) on the way to a search's first call; same names as before.
  const pathFor = (key: string) => join(dir, `${bytesToHex(sha256(utf8ToBytes(key))).slice(0, 40)}.json`)
  return {
    async get(key) {
      try {
        const entry = JSON.parse(await readBoundedTextFile(pathFor(key), MAX_ENTRY_BYTES)) as {
          key: string
          expiresAt: number
          value: unknown
        }
        if (entry.key !== key || entry.expiresAt <= Date.now()) return undefined
        return entry.value
      } catch {
        return undefined
      }
    },
    async set(key, value, ttlMs) {
      try {
        await writePrivateFileAtomic(pathFor(key), JSON.stringify({ key, expiresAt: Date.now() + ttlMs, value }))
      } catch {
        // A cache that cannot be written is a slower run, not a failed one.
      }
    },
    async delete(key) {
      await rm(pathFor(key), { force: true })
    },
  }
}
