import { ConfigError } from '@search-layer/core'
import { FileNotReadError, readBoundedTextFileSync } from '@search-layer/core/config'
import { type ApiKey, keyIdentity } from './authenticator.js'

// Thousands of keys fit in a few hundred KiB; a path to /dev/zero or a pipe must not hang the server's start.
const MAX_KEY_FILE_BYTES = 1024 * 1024

/**
 * Parses `SEARCH_LAYER_API_KEYS`: a comma list or `@file` with one key per line, each `key` or `name:key`.
 * Throws `ConfigError` when the value or the file holds no key at all (auth never fails open), for an unreadable
 * file, a key shorter than 8 characters or a name used twice.
 */
export function parseApiKeys(
  spec: string,
  readFile: (path: string) => string = (p) => readBoundedTextFileSync(p, MAX_KEY_FILE_BYTES),
): ApiKey[] {
  let entries: string[]
  if (spec.startsWith('@')) {
    const file = spec.slice(1)
    let text: string
    try {
      text = readFile(file)
    } catch (cause) {
      throw new ConfigError(
        `SEARCH_LAYER_API_KEYS: cannot read the key file ${file}: ${cause instanceof FileNotReadError ? cause.reason : ((cause as NodeJS.ErrnoException).code ?? 'unreadable')}`,
        { file, cause },
      )
    }
    entries = text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'))
  } else
    entries = spec
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean)
  // Set but empty must not mean "no auth": a blank variable or a key file that lost its keys would open every route.
  if (entries.length === 0) throw new ConfigError(emptyKeysMessage(spec), { field: 'apiKeys' })
  const keys = entries.map((entry) => {
    const colon = entry.indexOf(':')
    // Keys themselves never contain ':' in the formats we accept, so the first one separates the name.
    if (colon > 0) return { name: entry.slice(0, colon).trim(), key: entry.slice(colon + 1).trim() }
    return { name: keyIdentity(entry), key: entry }
  })
  const short = keys.findIndex((k) => k.key.length < 8)
  if (short >= 0)
    throw new ConfigError(
      `SEARCH_LAYER_API_KEYS: key ${short + 1} (${keys[short]!.name}) is shorter than 8 characters`,
      { field: 'apiKeys' },
    )
  const names = new Set<string>()
  for (const k of keys) {
    if (names.has(k.name))
      throw new ConfigError(`SEARCH_LAYER_API_KEYS: the name "${k.name}" is used twice`, { field: 'apiKeys' })
    names.add(k.name)
  }
  return keys
}

const KEYS_ALLOWED =
  'expected a comma list of keys (key or name:key, each at least 8 characters) or @/path/to/file with one per line; unset the variable to run without auth'

function emptyKeysMessage(spec: string): string {
  if (spec.startsWith('@'))
    return `SEARCH_LAYER_API_KEYS: the key file ${spec.slice(1)} has no keys (only blank or # comment lines); ${KEYS_ALLOWED}`
  return `SEARCH_LAYER_API_KEYS is set but holds no keys (${JSON.stringify(spec)}); ${KEYS_ALLOWED}`
}
