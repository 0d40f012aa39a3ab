import { runCli } from './main.js'

// The bin: real process streams and env; the exit code is set, not forced, so output is flushed first.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0)
})
runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code
})
