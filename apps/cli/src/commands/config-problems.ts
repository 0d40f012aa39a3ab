import { ConfigError, type Env, type ResolvedProviderDefinition, redactSecrets } from '@search-layer/core'
import { type ConfigInspection, type ConfigProblem, inspectConfig } from '@search-layer/core/config'
import type { CliIo } from '../io.js'

/**
 * What is wrong with the configuration. A config file the user named (`SEARCH_LAYER_CONFIG`) that does not exist
 * is a `ConfigError` (exit 2): running on without it would quietly ignore what they asked for. Everything else is
 * returned to be reported while the valid settings keep working.
 */
export function checkConfig(env: Env, providers: readonly ResolvedProviderDefinition[]): ConfigInspection {
  const inspection = inspectConfig({ env, services: providers })
  const { problems } = inspection
  const missing = problems.find((p) => p.kind === 'file_missing')
  if (missing)
    throw new ConfigError(missing.message, {
      ...(missing.file !== undefined && { file: missing.file }),
      ...(missing.variable !== undefined && { variable: missing.variable }),
    })
  return inspection
}

/** One stderr line per problem, e.g. `search-layer search: warning: Config file … is not valid JSON at line 2, column 9: …`. */
export function writeConfigProblems(problems: readonly ConfigProblem[], command: string, io: CliIo): void {
  for (const problem of problems)
    io.stderr.write(`search-layer ${command}: ${problem.severity}: ${redactSecrets(problem.message)}\n`)
}
