import { type ServerOptions, serverOptionsFromEnv, startServer } from '@search-layer/server'
import { parseIntFlag } from '../_flags.js'
import { EXIT } from '../_io.js'
import type { ParsedCommandArgs } from '../_args.js'
import type { CliIo } from '../_io.js'

/** The implementation, loaded only when the command runs. */
export async function runServe(args: ParsedCommandArgs, io: CliIo): Promise<number> {
  const v = args.values
  const overrides: Partial<ServerOptions> = {
    ...(v.port !== undefined && { port: parseIntFlag('port', v.port as string, 0, 65_535) }),
    ...(v.host !== undefined && { host: v.host as string }),
    ...(v['redis-url'] !== undefined && { redisUrl: v['redis-url'] as string }),
    ...(v['data-dir'] !== undefined && { dataDir: v['data-dir'] as string }),
    ...(v['rate-limit'] !== undefined && {
      clientRateLimit: parseIntFlag('rate-limit', v['rate-limit'] as string, 0, 1_000_000),
    }),
    ...(v['log-level'] !== undefined && { logLevel: v['log-level'] as ServerOptions['logLevel'] }),
  }
  const options = serverOptionsFromEnv(io.env, overrides)
  const server = await startServer({ ...options, env: io.env, handleSignals: false })
  io.stderr.write(
    `search-layer: serving on ${server.url} (OpenAPI at ${server.url}/openapi.json, MCP at ${server.url}/mcp); Ctrl-C stops\n`,
  )
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      void server.close().then(resolve)
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  return EXIT.ok
}
