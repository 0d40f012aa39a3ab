// The packed HTTP server (REST API, OpenAPI document, MCP at /mcp) on a free loopback port: prints its URL, then
// serves until its stdin closes.
import { startServer } from '@search-layer/server'

const server = await startServer({
  env: process.env,
  host: '127.0.0.1',
  port: 0,
  handleSignals: false,
  dataDir: process.env.SERVER_DATA_DIR,
  clientRateLimit: 0,
  providerRateLimits: false,
  logLevel: 'silent',
})
console.log(server.url)
process.stdin.resume()
process.stdin.on('end', async () => {
  await server.close()
  process.exit(0)
})
