import { sha256Hex } from './_sha256.js'

/**
 * The keys one setting holds: `BRAVE_API_KEY=key1,key2` (or a config-file list) is a pool of two. Commas and
 * whitespace separate keys (no vendor key contains either); empty entries and repeats are dropped. Pure.
 */
export function splitApiKeys(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return []
  const parts = (typeof value === 'string' ? [value] : value).flatMap((v) => v.split(/[\s,]+/))
  return [...new Set(parts.filter((part) => part.length > 0))]
}

/**
 * A stable, non-reversible name for a key: the first 12 hex digits of its SHA-256. Learned limits and circuit
 * state are stored under it, so neither a state file nor Redis ever holds the key.
 */
export function apiKeyId(key: string): string {
  let id = idsByKey.get(key)
  if (id === undefined) {
    if (idsByKey.size >= MAX_REMEMBERED_IDS) idsByKey.clear()
    id = sha256Hex(key).slice(0, 12)
    idsByKey.set(key, id)
  }
  return id
}

// A pool's key is hashed for its id and again for its label: a search with four engines hashed eight times, and
// V8 optimised the hash function synchronously at its sixth call (3-13 ms once, measured in a fresh process), more
// than the hashing itself. The keys are in the process's config anyway; the bound is for a process whose keys change.
const idsByKey = new Map<string, string>()
const MAX_REMEMBERED_IDS = 256

/** How reports name the key at `index` (0-based) of a pool: `key #2 (…a1b2)`, the tail of its id, never of the key. */
export function apiKeyLabel(index: number, key: string): string {
  return `key #${index + 1} (…${apiKeyId(key).slice(-4)})`
}
