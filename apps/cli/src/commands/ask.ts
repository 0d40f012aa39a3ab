import type { Command } from '../command.js'

export const askCommand: Command = {
  name: 'ask',
  summary:
    'Answer a question: a model searches, reads and cites exact quotes (checked), or abstains; extractive without a model.',
  usage: 'search-layer ask "<question>" [--continue <id>] [--transcript <file>] [--no-model] [--json]',
  flags: {
    continue: { type: 'string', valueHint: 'id', description: 'follow up on a saved conversation (its id)' },
    transcript: { type: 'string', valueHint: 'file', description: 'write the Markdown transcript here' },
    'no-model': { type: 'boolean', description: 'answer extractively even when SEARCH_LAYER_LLM_URL is set' },
    rounds: { type: 'string', valueHint: '1-12', description: 'model turns that may call tools (default 4)' },
    'tool-calls': { type: 'string', valueHint: '0-40', description: 'tool calls in all (default 8)' },
    timeout: { type: 'string', valueHint: 'ms', description: 'wall time of the whole ask (default 90000)' },
    json: { type: 'boolean', description: 'print JSON (the default when stdout is not a terminal)' },
    format: {
      type: 'string',
      choices: ['json', 'markdown'],
      description: 'output format (default: markdown on a terminal, JSON otherwise)',
    },
    help: { type: 'boolean', short: 'h', description: 'show this help' },
  },
  examples: [
    'search-layer ask "When did Node.js ship a global fetch?"',
    'search-layer ask --continue 20261207-012600-3f9a1c "why was it behind a flag?"',
    'search-layer ask "what changed in Postgres 18?" --no-model --json',
  ],
  run: (args, io) => import('./ask-run.js').then((m) => m.runAsk(args, io)),
}
