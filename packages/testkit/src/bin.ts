import { runEmulatorCli } from './cli.js'

const { code, emulator } = await runEmulatorCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
})
if (!emulator) process.exit(code)
else {
  const stop = (signal: NodeJS.Signals) => {
    process.stderr.write(`\nsearch-layer-emulator: ${signal}, shutting down\n`)
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}
