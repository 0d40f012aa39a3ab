import { createSearchLayer } from '@search-layer/engine'
import { runStdioServer } from '@search-layer/mcp'
import { checkConfig, writeConfigProblems } from './config-problems.js'
import { engineOptionsFromEnv } from '../engine-options.js'
import { loadProviders } from '../providers.js'
import { parseIntFlag } from '../flags.js'
import { EXIT } from '../io.js'
import type { ParsedCommandArgs } from '../args.js'
import type { CliIo } from '../io.js'

/** The implementation, loaded only when the command runs. */
export async function runMcp(args: ParsedCommandArgs, io: CliIo): Promise<number> {
  const providers = await loadProviders(io.env)
  // stderr only: stdout carries the protocol.
  writeConfigProblems(checkConfig(io.env, providers).problems, 'mcp', io)
  const maxChars = parseIntFlag('max-chars', args.values['max-chars'] as string | undefined, 500, 1_000_000)
  // stdout carries the protocol; the disk cache makes repeated agent searches instant across sessions.
  const engineOptions = engineOptionsFromEnv(io.env, { cache: true, providers })
  const layer = createSearchLayer(engineOptions)
  const running = await runStdioServer({
    env: io.env,
    layer,
    ...(maxChars && { maxChars }),
    stdin: io.stdin as never,
    stdout: io.stdout as never,
  })
  await new Promise<void>((resolve) => {
    const done = () => resolve()
    io.stdin.once('end', done)
    io.stdin.once('close', done)
    process.once('SIGTERM', done)
    process.once('SIGINT', done)
  })
  await running.close()
  await engineOptions.settled()
  return EXIT.ok
}
