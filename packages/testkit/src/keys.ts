import type { KeyedService } from './types.js'

/** The fixed test keys the emulator accepts unless `keys` overrides them. */
export const DEFAULT_KEYS: Readonly<Record<KeyedService, string>> = Object.freeze({
  brave: 'BSAtest-brave-key-0001',
  exa: 'exa-test-key-0001',
  tavily: 'tvly-test-key-0001',
  grok: 'xai-test-key-0001',
  github: 'ghp_testtoken000000000000000000000001',
  llm: 'sk-test-llm-0001',
  // Stack Exchange app keys look like this (and are not secret: they only raise the daily quota).
  stackexchange: 'emuTestKey0001zz((',
  bocha: 'sk-bochatest00000000000000000001',
})

/** The default clock: 2026-11-20T12:00:00Z. */
export const DEFAULT_NOW = '2026-11-20T12:00:00Z'

/**
 * The variables of an emulator `env` a new user would not have set: every key and token, and `SEARXNG_URL` (an
 * instance of their own). What is left are the base URLs each provider definition declares.
 */
export function userKeyVariables(env: Readonly<Record<string, string>>): string[] {
  return Object.keys(env).filter((name) => /KEY|TOKEN/.test(name) || name === 'SEARXNG_URL')
}

/** An emulator `env` as a user with no key has it: only the keyless sources' base URLs point at the emulator. */
export function zeroKeyEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  const unset = new Set(userKeyVariables(env))
  return Object.fromEntries(Object.entries(env).filter(([name]) => !unset.has(name)))
}
