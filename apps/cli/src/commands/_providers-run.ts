import { PROVIDER_NAMES, SERVICE_KEY_ENV, describeConfig } from '@search-layer/core'
import type { ParsedCommandArgs } from '../_args.js'
import { type CliIo, EXIT } from '../_io.js'
import { renderTable } from '../_table.js'
import { checkConfig, writeConfigProblems } from './_config-problems.js'

/** The implementation, loaded only when the command runs. */
export async function runProviders(args: ParsedCommandArgs, io: CliIo): Promise<number> {
  const { config, problems } = checkConfig(io.env)
  const description = describeConfig(config)
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
    d.configured ? `${d.key} from ${d.keySource}` : `set ${SERVICE_KEY_ENV[d.name][0]}`,
    d.baseUrl + (d.baseUrlSource === 'default' ? '' : ` (${d.baseUrlSource})`),
    d.model ?? '',
  ])
  io.stdout.write(renderTable(['service', 'configured', 'key', 'endpoint', 'model'], rows))
  const searchReady = description.filter(
    (d) => d.configured && (PROVIDER_NAMES as readonly string[]).includes(d.name),
  ).length
  io.stdout.write(`\n${searchReady} of ${PROVIDER_NAMES.length} search providers configured.\n`)
  writeConfigProblems(problems, 'providers', io)
  return code
}
