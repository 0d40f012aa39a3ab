import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { type ServerType, serve } from '@hono/node-server'
import { warmTokenizer } from '@search-layer/evidence'
import { closeSharedExtractPool, closeSharedPageRenderer } from '@search-layer/page-fetch'
import { applyHeapGrowth } from './heap-growth.js'
import { createInFlightRequests } from './in-flight.js'
import { listenErrorToConfigError } from './listen-error.js'
import type { Logger } from 'pino'
import { type CreateAppOptions, createApp } from './app.js'

/** Options of `startServer`: those of `createApp`, plus signal handling. */
export interface StartServerOptions extends CreateAppOptions {
  /** Shut down gracefully on SIGTERM and SIGINT. Default true. */
  handleSignals?: boolean
  /**
   * Load the passage tokenizer just after listening (≈ 0.5 s of CPU, once), so the first search with `read` does not
   * pay for it. Default true.
   */
  warmReading?: boolean
}

/** A listening server. */
export interface RunningServer {
  url: string
  port: number
  /** Stops accepting, lets in-flight requests finish (bounded by `shutdownTimeoutMs`), then closes Redis. */
  close(): Promise<void>
}

/**
 * Starts the HTTP server on @hono/node-server and bounds V8's heap growth (`heapGrowthPercent`). Throws
 * `ConfigError` for bad options, and for a listen failure the user can fix (port in use or privileged, host not
 * local or unresolvable: `field` is `port` or `host`, the listen error is the `cause`); rejects with other listen errors.
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const wired = createApp(options)
  const { app, options: settings } = wired
  const logger = wired.context.logger
  if (settings.redisUrl && !(await wired.ready()))
    logger.warn('redis did not answer at startup: serving in-process until it does')

  const inFlight = createInFlightRequests()
  let server: ServerType
  try {
    server = await new Promise<ServerType>((resolve, reject) => {
      const s = serve(
        {
          // A request ends when its body is written, not when its handler returns: SSE bodies outlive the handler.
          fetch: (request, env) => inFlight.track(Promise.resolve(app.fetch(request, env)), env?.outgoing),
          port: settings.port,
          hostname: settings.host,
        },
        () => resolve(s),
      )
      s.once('error', reject)
    })
  } catch (error) {
    await wired.close()
    throw listenErrorToConfigError(error, { port: settings.port, host: settings.host })
  }
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  const url = `http://${host}:${address.port}`
  // Process-wide, so only once the server is really up (see _heap-growth.ts for why a server wants it).
  const heap = applyHeapGrowth(settings.heapGrowthPercent)
  logger.info(
    {
      url,
      redis: Boolean(settings.redisUrl),
      auth: settings.apiKeys.length > 0,
      heapGrowthPercent: heap.applied ? heap.percent : heap.reason,
    },
    'search-layer server listening',
  )

  if (options.warmReading !== false) warmReadingSoon(logger)

  if (settings.apiKeys.length === 0 && !isLoopback(address.address))
    logger.warn(
      { url },
      'no API keys: every client that can reach this address may search on your provider keys; set SEARCH_LAYER_API_KEYS',
    )

  if (settings.allowedHosts === true && settings.apiKeys.length === 0)
    logger.warn(
      { url },
      'SEARCH_LAYER_ALLOWED_HOSTS=all without API keys: any web page the user opens can reach this server by DNS rebinding; list the host names instead',
    )

  let closing: Promise<void> | undefined
  const close = () => {
    closing ??= (async () => {
      process.off('SIGTERM', onSignal)
      process.off('SIGINT', onSignal)
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      // Keep-alive sockets would hold close() open; idle ones can go now, busy ones after their response.
      if ('closeIdleConnections' in server) server.closeIdleConnections()
      const drained = inFlight.drained()
      let timer: NodeJS.Timeout | undefined
      const bounded = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), settings.shutdownTimeoutMs)
      })
      const outcome = await Promise.race([drained.then(() => 'drained' as const), bounded])
      clearTimeout(timer)
      if (outcome === 'timeout')
        logger.warn({ inFlight: inFlight.count() }, 'shutdown timeout: cutting the remaining connections')
      if ('closeAllConnections' in server) server.closeAllConnections()
      await closed
      await wired.close()
      // Page extraction workers and the rendering browser are process-wide (fetchPage's); their requests are done.
      await Promise.all([closeSharedExtractPool(), closeSharedPageRenderer()])
      logger.info('search-layer server stopped')
    })()
    return closing
  }
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'shutting down')
    void close()
  }
  if (options.handleSignals !== false) {
    process.once('SIGTERM', onSignal)
    process.once('SIGINT', onSignal)
  }
  return { url, port: address.port, close }
}

/**
 * Loads the tokenizer in the background once the server listens: readiness is not held for it (the port answers at
 * once), and the one parse of its rank table (a synchronous ≈ 0.3–0.5 s on the main thread) happens at start rather
 * than inside the first search that reads. Scheduled after the listen callback's own work.
 */
function warmReadingSoon(logger: Logger): void {
  setImmediate(() => {
    const startedAt = performance.now()
    void warmTokenizer().then(() =>
      logger.debug({ ms: Math.round(performance.now() - startedAt) }, 'passage tokenizer loaded'),
    )
  })
}

// 127.0.0.0/8 and ::1 (also IPv4-mapped): only this machine can connect, so running without keys is a choice, not an exposure.
function isLoopback(address: string): boolean {
  return address === '::1' || /^(::ffff:)?127\./.test(address)
}
