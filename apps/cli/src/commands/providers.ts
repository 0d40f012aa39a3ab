import { PROVIDER_NAMES, describeConfig, resolveConfig } from '@search-layer/core'
import type { Command } from '../_command.js'
import { EXIT } from '../_io.js'
import { renderTable } from '../_table.js'

const ENV_HINT: Record<string, string> = {
  brave: 'BRAVE_API_KEY',
  exa: 'EXA_API_KEY',
  tavily: 'TAVILY_API_KEY',
  grok: 'XAI_API_KEY',
  github: 'GITHUB_TOKEN',
}

export const providersCommand: Command = {
  name: 'providers',
  summary: 'Show which providers are configured (keys are never shown) and where each setting comes from.',
  usage: 'search-layer providers [--json]',
  flags: {
    json: { type: 'boolean', description: 'print JSON instead of a table' },
    help: { type: 'boolean', short: 'h', description: 'show this help' },
  },
  async run(args, io) {
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
    const searchReady = description.filter((d) => d.configured && (PROVIDER_NAMES as readonly string[]).includes(d.name)).length
    io.stdout.write(`\n${searchReady} of ${PROVIDER_NAMES.length} search providers configured.\n`)
    return EXIT.ok
  },
}
