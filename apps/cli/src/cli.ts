import nodeModule from 'node:module'
import { runCli } from './main.js'

// Node >= 22.1 can keep V8's compiled code for the bundle's chunks between runs (in the OS temp dir), which
// saves most of a cold start's parse and compile; older Node has no such API and runs as before.
// NODE_DISABLE_COMPILE_CACHE=1 turns it off.
;(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.()

// The bin: real process streams and env; the exit code is set, not forced, so output is flushed first.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0)
})
runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code
})
