import type { Command } from '../command.js'

export const providersCommand: Command = {
  name: 'providers',
  summary: 'Show which providers are configured (keys are never shown) and where each setting comes from.',
  usage: 'search-layer providers [--json]',
  flags: {
    json: { type: 'boolean', description: 'print JSON instead of a table' },
    help: { type: 'boolean', short: 'h', description: 'show this help' },
  },
  run: (args, io) => import('./providers-run.js').then((m) => m.runProviders(args, io)),
}
