import { homedir } from 'node:os'
import { join } from 'node:path'
import type { Env } from '@search-layer/core'
import { readBoundedTextFileSync } from '@search-layer/core/config'

// gh's hosts.yml is a few hundred bytes; a GH_CONFIG_DIR holding a pipe or a huge file yields no token, not a hang.
const MAX_HOSTS_FILE_BYTES = 1024 * 1024

/**
 * The `oauth_token` that `gh auth login` stored for `host` in `hosts.yml`, if any. gh writes a tiny, flat YAML
 * (`host:` blocks with indented `key: value` lines, newer versions nest per-user blocks under `users:`), so a
 * line scanner is enough; tokens kept in the OS keyring are not readable here and yield undefined.
 */
export function readGhToken(host: string, options: { env?: Env; homeDir?: string } = {}): string | undefined {
  const env = options.env ?? process.env
  const home = options.homeDir ?? (env.HOME || homedir())
  // Empty variables are unset (XDG Base Directory spec), not paths relative to the working directory.
  const dir = env.GH_CONFIG_DIR || join(env.XDG_CONFIG_HOME || join(home, '.config'), 'gh')
  let text: string
  try {
    text = readBoundedTextFileSync(join(dir, 'hosts.yml'), MAX_HOSTS_FILE_BYTES)
  } catch {
    return undefined
  }
  return parseGhHosts(text, host)
}

/** Pure part of `readGhToken`: the first `oauth_token` inside the top-level block of `host`. */
export function parseGhHosts(text: string, host: string): string | undefined {
  let inHost = false
  for (const raw of text.split(/\r?\n/)) {
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) continue
    if (!/^\s/.test(raw)) {
      const key = unquote(raw.replace(/:\s*$/, '').trim())
      inHost = key.toLowerCase() === host.toLowerCase()
      continue
    }
    if (!inHost) continue
    const key = /^\s+oauth_token:/.exec(raw)
    const rest = key ? raw.slice(key[0].length).trim() : ''
    if (rest) {
      const value = unquote(rest)
      if (value) return value
    }
  }
  return undefined
}

function unquote(value: string): string {
  const v = withoutComment(value)
  return /^(['"]).*\1$/.test(v) ? v.slice(1, -1) : v
}

/** The value before a ` # comment`, found without a pattern that re-reads a run of blanks from each blank. */
function withoutComment(value: string): string {
  const hash = /\s#/.exec(value)
  if (!hash) return value
  let start = hash.index
  while (start > 0 && /\s/.test(value[start - 1]!)) start--
  return value.slice(0, start)
}
