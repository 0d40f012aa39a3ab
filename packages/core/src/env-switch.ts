import type { Env } from './env.js'
import { ConfigError } from './errors.js'

// The words of an on/off setting, in any case: every switch of the house reads the same ones, so `0` never means on
// in one variable and off in another.
const SWITCH_WORDS: Readonly<Record<string, boolean>> = {
  on: true,
  true: true,
  '1': true,
  off: false,
  false: false,
  '0': false,
}

/**
 * An on/off environment setting (`SEARCH_LAYER_KEYLESS`, `SEARCH_LAYER_ALLOW_PRIVATE_HOSTS`, …): true for `on`,
 * `true` or `1`, false for `off`, `false` or `0` (any case, spaces trimmed), undefined when unset or empty.
 * @throws ConfigError naming the variable and its value for anything else.
 */
export function envSwitch(env: Env, name: string): boolean | undefined {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return undefined
  const value = SWITCH_WORDS[raw.trim().toLowerCase()]
  if (value === undefined)
    throw new ConfigError(`${name}=${JSON.stringify(raw.slice(0, 40))} is not allowed; use on or off.`, {
      variable: name,
    })
  return value
}
