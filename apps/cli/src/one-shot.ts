import { config } from 'zod'
import { useOneShotV8Flags } from './one-shot-flags.js'

// Imported first by commands that run once and exit (search, thread, refs, chain, fetch), before any package
// builds its schemas: zod decides at construction whether a schema gets a generated parser. Generating one costs
// more than it saves over the few responses one command parses (~10–30 ms of a search, measured). Long-running
// commands (serve, mcp) do not import this and keep zod's default.
config({ jitless: true })

useOneShotV8Flags()
