import { GITHUB_SERVICE, describeConfig, keyVariableHint } from '@search-layer/core'
import type { ParsedCommandArgs } from '../_args.js'
import { type CliIo, EXIT } from '../_io.js'
import { loadProviders } from '../_providers.js'
import { renderTable } from '../_table.js'
import { checkConfig, writeConfigProblems } from './_config-problems.js'

/** The implementation, loaded only when the command runs. */
export async function runProviders(args: ParsedCommandArgs, io: CliIo): Promise<number> {
  const providers = await loadProviders(io.env)
  const { config, problems } = checkConfig(io.env, providers)
  const keyless = new Set(providers.filter((d) => d.keyless).map((d) => d.id))
  const description = describeConfig(config).map((d) =>
    keyless.has(d.name) ? { ...d, configured: true, key: 'not needed' } : d,
  )
  const hintOf = new Map([...providers, GITHUB_SERVICE].map((d) => [d.id, keyVariableHint(d)]))
  // Exit 2 when something is broken, after showing what still works.
  const code = problems.some((p) => p.severity === 'error') ? EXIT.usage : EXIT.ok
  const invalid = new Set(
    problems.filter((p) => p.severity === 'error' && p.services.length === 1).flatMap((p) => p.services),
  )
  if (args.values.json) {
    io.stdout.write(`${JSON.stringify({ providers: description, ...(problems.length && { problems }) }, null, 2)}\n`)
    writeConfigProblems(problems, 'providers', io)
    return code
  }
  const rows = description.map((d) => [
    d.name,
    invalid.has(d.name) ? 'invalid' : d.configured ? 'yes' : 'no',
    d.configured ? `${d.key} from ${d.keySource}` : `set ${hintOf.get(d.name)}`,
    d.baseUrl + (d.baseUrlSource === 'default' ? '' : ` (${d.baseUrlSource})`),
    d.model ?? '',
  ])
  io.stdout.write(renderTable(['service', 'configured', 'key', 'endpoint', 'model'], rows))
  const ids = new Set(providers.map((d) => d.id))
  const searchReady = description.filter((d) => d.configured && ids.has(d.name)).length
  io.stdout.write(`\n${searchReady} of ${ids.size} search providers configured.\n`)
  writeConfigProblems(problems, 'providers', io)
  return code
}
