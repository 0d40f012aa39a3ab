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

// Started with --expose-gc (see _remote-server.ts): `gc` answers the heap still in use after a full collection,
// which tells live data (a leak would grow it) from garbage V8 has not collected yet (which only RSS shows).
const collect = (globalThis as { gc?: () => void }).gc

process.on('message', async (message: { id: number; op: 'stats' | 'resetPeak' | 'gc' | 'close' }) => {
  const rss = process.memoryUsage().rss
  peakRss = Math.max(peakRss, rss)
  if (message.op === 'resetPeak') peakRss = rss
  if (message.op === 'gc') collect?.()
  const { user, system } = process.cpuUsage()
  const value = { rss, peakRss, heapUsed: process.memoryUsage().heapUsed, cpuMs: (user + system) / 1000 }
  process.send?.({ id: message.id, ok: true, value })
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
