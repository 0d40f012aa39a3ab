import type { FlagSpec } from '../args.js'

/** The flags of a command that answers each query on its own (`intent`, `expand`): one query or `--stdin` lines. */
export const PER_QUERY_FLAGS: Record<'json' | 'stdin' | 'help', FlagSpec> = {
  json: { type: 'boolean', description: 'print JSON (the default when stdout is not a terminal)' },
  stdin: {
    type: 'boolean',
    description: 'read one query per line from stdin; print one JSON object per line (JSON Lines)',
  },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
}
