import { setFlagsFromString } from 'node:v8'
import { config } from 'zod'

// Imported first by commands that run once and exit (search, thread, refs, chain, fetch), before any package
// builds its schemas: zod decides at construction whether a schema gets a generated parser. Generating one costs
// more than it saves over the few responses one command parses (~10–30 ms of a search, measured). Long-running
// commands (serve, mcp) do not import this and keep zod's default.
config({ jitless: true })

// undici parses HTTP with a WebAssembly build of llhttp (page fetches here; provider calls use node:http in this
// bundle). V8 first compiles it with its baseline compiler, then recompiles the hot parser functions with its
// optimising compiler on a worker thread, and a process cannot exit until that job is done: 70–90 ms after the output
// was written (measured; the optimised code is never used by a process about to exit). Baseline code is enough.
setFlagsFromString('--liftoff-only')
