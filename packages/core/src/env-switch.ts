import type { Env } from './env.js'
import { ConfigError } from './errors.js'
import { switchMessage, switchValue } from './switch-words.js'

/**
 * An on/off environment setting (`SEARCH_LAYER_KEYLESS`, `SEARCH_LAYER_ALLOW_PRIVATE_HOSTS`, …): true for `on`,
 * `true` or `1`, false for `off`, `false` or `0` (any case, spaces trimmed), undefined when unset or empty.
 * @throws ConfigError naming the variable and its value for anything else.
 */
export function envSwitch(env: Env, name: string): boolean | undefined {
  const value = switchValue(env[name])
  if (value === null) throw new ConfigError(switchMessage(name, env[name] as string), { variable: name })
  return value
}
