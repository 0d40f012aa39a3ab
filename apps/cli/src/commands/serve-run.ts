import { type ServerOptions, serverOptionsFromEnv, startServer } from '@search-layer/server'
import { checkConfig, writeConfigProblems } from './config-problems.js'
import { parseIntFlag } from '../flags.js'
import { EXIT } from '../io.js'
import { loadProviders } from '../providers.js'
import type { ParsedCommandArgs } from '../args.js'
import type { CliIo } from '../io.js'

/** The implementation, loaded only when the command runs. */
export async function runServe(args: ParsedCommandArgs, io: CliIo): Promise<number> {
  const providers = await loadProviders(io.env)
  writeConfigProblems(checkConfig(io.env, providers).problems, 'serve', io)
  const v = args.values
  const overrides: Partial<ServerOptions> = {
    ...(v.port !== undefined && { port: parseIntFlag('port', v.port as string, 0, 65_535) }),
    ...(v.host !== undefined && { host: v.host as string }),
    // The server's parser checks the entries and names --allowed-hosts in its error.
    ...(v['allowed-hosts'] !== undefined && { allowedHosts: (v['allowed-hosts'] as string).split(',') }),
    ...(v['redis-url'] !== undefined && { redisUrl: v['redis-url'] as string }),
    ...(v['data-dir'] !== undefined && { dataDir: v['data-dir'] as string }),
    ...(v['rate-limit'] !== undefined && {
      clientRateLimit: parseIntFlag('rate-limit', v['rate-limit'] as string, 0, 1_000_000),
    }),
    ...(v['log-level'] !== undefined && { logLevel: v['log-level'] as ServerOptions['logLevel'] }),
  }
  const options = serverOptionsFromEnv(
    io.env,
    overrides,
    providers.map((d) => d.id),
  )
  let server: Awaited<ReturnType<typeof startServer>>
  try {
    server = await startServer({ ...options, env: io.env, providers, handleSignals: false })
  } catch (error) {
    throw nameListenSetting(error, v, io.env)
  }
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

const LISTEN_SETTINGS = { port: 'SEARCH_LAYER_PORT', host: 'SEARCH_LAYER_HOST' } as const

// startServer says "port 8787 is already in use…": name what the user set instead, the flag or the variable.
function nameListenSetting(error: unknown, flags: ParsedCommandArgs['values'], env: CliIo['env']): unknown {
  const field = (error as { field?: string } | undefined)?.field
  if (!(error instanceof Error) || error.name !== 'ConfigError' || (field !== 'port' && field !== 'host')) return error
  const label = flags[field] !== undefined ? `--${field}` : env[LISTEN_SETTINGS[field]] ? LISTEN_SETTINGS[field] : field
  error.message = error.message.replace(/^(port|host) /, `${label} `)
  return error
}
