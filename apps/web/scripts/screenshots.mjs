// Takes the README's screenshots of the built app: the server and the emulator on loopback, headless Chromium from
// CHROMIUM_BIN or /usr/bin/chromium. Usage: node apps/web/scripts/screenshots.mjs (after `pnpm build`).
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'

const root = new URL('../../../', import.meta.url).pathname
const out = new URL('../docs/', import.meta.url).pathname
const { startEmulator } = await import(join(root, 'packages/testkit/dist/index.js'))
const { startServer } = await import(join(root, 'apps/server/dist/index.js'))

const emu = await startEmulator({ latencyMs: { brave: 120, exa: 260, tavily: 700, grok: 450 } })
const home = mkdtempSync(join(tmpdir(), 'sl-shots-'))
const server = await startServer({
  env: { ...emu.env, HOME: home },
  port: 0,
  host: '127.0.0.1',
  handleSignals: false,
  dataDir: home,
  logLevel: 'silent',
  providerRateLimits: false,
  clientRateLimit: 0,
})
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_BIN ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
  ],
})

// Tool calls to show: one over HTTP, one over MCP (stateless Streamable HTTP takes a bare tools/call).
await fetch(`${server.url}/api/tools/web_search`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ query: 'tokio vs async-std' }),
})
const mcp = await fetch(`${server.url}/mcp`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'fetch_thread', arguments: { url: 'https://github.com/octo/demo/issues/2' } },
  }),
})
await mcp.text()

async function shot(name, { theme, width = 1100, height = 760, path = '/', act }) {
  const context = await browser.newContext({ viewport: { width, height }, colorScheme: theme })
  const page = await context.newPage()
  await page.goto(`${server.url}${path}`)
  await act?.(page)
  await page.screenshot({ path: join(out, `${name}.png`) })
  await context.close()
}
const search = (query) => async (page) => {
  await page.fill('#q', query)
  await page.press('#q', 'Enter')
  await page
    .getByRole('status')
    .filter({ hasText: /results in \d+ ms/ })
    .first()
    .waitFor()
  await page.locator('.plan summary').click()
}

await shot('search-light', { theme: 'light', width: 1000, height: 940, act: search('Bun vs Deno') })
await shot('search-dark', { theme: 'dark', width: 1000, height: 940, act: search('rust async runtime tutorial') })
await shot('reader-light', {
  theme: 'light',
  path: `/#/read?url=${encodeURIComponent('https://github.com/octo/demo/issues/2')}`,
  act: (page) => page.getByRole('group', { name: /Reference graph/ }).waitFor(),
})
await shot('tool-calls-dark', {
  theme: 'dark',
  path: '/#/tools',
  act: async (page) => {
    await page.locator('.tool-node').first().waitFor()
    await page.locator('.tool-node details summary').first().click()
  },
})
await shot('narrow-dark', { theme: 'dark', width: 390, height: 800, act: search('deno 2 release notes') })

await browser.close()
await server.close()
await emu.close()
console.log(`screenshots written to ${out}`)
