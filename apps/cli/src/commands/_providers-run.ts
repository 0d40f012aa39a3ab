import { PROVIDER_NAMES, describeConfig, resolveConfig } from '@search-layer/core'
import type { ParsedCommandArgs } from '../_args.js'
import { type CliIo, EXIT } from '../_io.js'
import { renderTable } from '../_table.js'

const ENV_HINT: Record<string, string> = {
  brave: 'BRAVE_API_KEY',
  exa: 'EXA_API_KEY',
  tavily: 'TAVILY_API_KEY',
  grok: 'XAI_API_KEY',
  github: 'GITHUB_TOKEN',
}

/** The implementation, loaded only when the command runs. */
export async function runProviders(args: ParsedCommandArgs, io: CliIo): Promise<number> {
  const description = describeConfig(resolveConfig({ env: io.env }))
  if (args.values.json) {
    io.stdout.write(`${JSON.stringify({ providers: description }, null, 2)}\n`)
    return EXIT.ok
  }
  const rows = description.map((d) => [
    d.name,
    d.configured ? 'yes' : 'no',
    d.configured ? `${d.key} from ${d.keySource}` : `set ${ENV_HINT[d.name]}`,
    d.baseUrl + (d.baseUrlSource === 'default' ? '' : ` (${d.baseUrlSource})`),
    d.model ?? '',
  ])
  io.stdout.write(renderTable(['service', 'configured', 'key', 'endpoint', 'model'], rows))
  const searchReady = description.filter(
    (d) => d.configured && (PROVIDER_NAMES as readonly string[]).includes(d.name),
  ).length
  io.stdout.write(`\n${searchReady} of ${PROVIDER_NAMES.length} search providers configured.\n`)
  return EXIT.ok
}
