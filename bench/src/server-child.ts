// The search-layer HTTP server in a process of its own, so its RSS and CPU are its own and not the load
// generator's. Driven over IPC: it reports its URL, then answers stats requests until told to close.
import { startServer } from '@search-layer/server'

const env = JSON.parse(process.env.BENCH_SERVER_ENV ?? '{}') as Record<string, string>
const server = await startServer({
  env,
  host: '127.0.0.1',
  port: 0,
  clientRateLimit: 0,
  providerRateLimits: false,
  logLevel: 'silent',
  dataDir: env.HOME ?? process.cwd(),
  handleSignals: true,
})

let peakRss = process.memoryUsage().rss
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss)
}, 100)
sampler.unref()

process.on('message', async (message: { id: number; op: 'stats' | 'resetPeak' | 'close' }) => {
  const rss = process.memoryUsage().rss
  peakRss = Math.max(peakRss, rss)
  if (message.op === 'resetPeak') peakRss = rss
  process.send?.({ id: message.id, ok: true, value: { rss, peakRss } })
  if (message.op === 'close') {
    clearInterval(sampler)
    await server.close()
    process.disconnect()
  }
})
process.on('disconnect', () => {
  void server.close().finally(() => process.exit(0))
})
process.send?.({ ready: true, url: server.url })
