import { enablePrivateCompileCache } from './compile-cache.js'
import { runCli } from './main.js'

// Node >= 22.1 keeps V8's compiled code for the bundle's chunks between runs, in the user's cache directory (see
// compile-cache.ts), which saves most of a cold start's parse and compile of the chunks a command imports.
await enablePrivateCompileCache(process.env)

// The bin: real process streams and env.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0)
})
runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code
  // Every command has awaited all of its work when it returns (serve and mcp return once they have shut down).
  // What a natural exit would still do is tear down the JS heap, ~6 ms of every search (measured); so exit as
  // soon as both streams have handed over what was written to them.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)))
})
