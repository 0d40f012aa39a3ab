import { gzipSync } from 'node:zlib'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { type Emulator, pluginProvider, startEmulator, userKeyVariables } from '@search-layer/testkit'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { findWebDir } from '../src/routes/web.js'
import { launchChromium } from './_browser.js'
import { type Booted, boot } from './_helpers.js'

// The built web app (apps/web/dist, found by routes/web.ts from source) in headless Chromium, against a real server
// and the emulator on loopback.

let emu: Emulator
let browser: Browser
let server: Booted
const extra: Booted[] = []
let context: BrowserContext
let page: Page

const NO_ENGINES = {
  BRAVE_API_KEY: undefined,
  EXA_API_KEY: undefined,
  TAVILY_API_KEY: undefined,
  XAI_API_KEY: undefined,
}
const KEY = { name: 'alice', key: 'k-alice-web-0123456789' }
// What a new user has: no key at all and no SearXNG instance. Only the base URLs each definition declares
// (DUCKDUCKGO_URL, WIKIPEDIA_API_URL, …) point at the emulator, so the keyless sources answer from it.
const ZERO_KEYS = () => ({
  ...Object.fromEntries(userKeyVariables(emu.env).map((k) => [k, undefined])),
  SEARCH_LAYER_KEYLESS: 'on',
})
const ENGINE_VARIABLES = ['BRAVE_API_KEY', 'EXA_API_KEY', 'TAVILY_API_KEY', 'XAI_API_KEY']

beforeAll(async () => {
  if (!findWebDir()) throw new Error('The web app is not built: run `npx -y pnpm@10 --filter @search-layer/web build`')
  ;[emu, browser] = await Promise.all([startEmulator({ latencyMs: 30 }), launchChromium()])
  server = await boot(emu)
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await server?.close()
  await emu?.close()
})
beforeEach(async () => {
  emu.reset()
  context = await browser.newContext({ viewport: { width: 1200, height: 900 } })
  page = await context.newPage()
})
afterEach(async () => {
  await context.close()
  await Promise.all(extra.splice(0).map((s) => s.close()))
})

async function search(query: string) {
  // `/` focuses the search box from anywhere else on the page.
  await page.evaluate('document.activeElement && document.activeElement.blur()')
  await page.keyboard.press('/')
  await page.keyboard.press('Control+A')
  await page.keyboard.type(query)
  await page.keyboard.press('Enter')
}
const finished = () =>
  page
    .getByRole('status')
    .filter({ hasText: /results in \d+ ms|Search failed/ })
    .first()
    .waitFor()

describe('the web app', () => {
  it('shows results before the slowest engine answers, then all four', async () => {
    emu.fault('tavily', { latencyMs: 2500 })
    await page.goto(server.url)
    await search('tokio runtime internals')
    await page.locator('.result').first().waitFor()
    // The first results are on screen while Tavily is still searching.
    expect(await page.locator('[data-engine=tavily]').getAttribute('data-status')).toBe('busy')
    await finished()
    // The search settles without Tavily; the server lets its call finish and the stream delivers it after `done`.
    await expect
      .poll(() => page.locator('[data-engine=tavily]').getAttribute('data-status'), { timeout: 10_000 })
      .toBe('good')
    await expect.poll(() => page.locator('.plan').textContent()).toContain('Sub-queries')
    expect(await page.locator('.result').count()).toBeGreaterThan(3)
  })

  it('marks a failing engine and warns about partial results', async () => {
    emu.fault('exa', { status: 500 })
    await page.goto(server.url)
    await search('deno permissions model')
    await finished()
    expect(await page.locator('[data-engine=exa]').getAttribute('data-status')).toBe('bad')
    await expect.poll(() => page.locator('.warnings').textContent()).toMatch(/Partial results: exa/)
    expect(await page.locator('.result').count()).toBeGreaterThan(0)
  })

  it('says so when every engine fails', async () => {
    for (const name of ['brave', 'exa', 'tavily', 'grok'] as const) emu.fault(name, { status: 500 })
    await page.goto(server.url)
    await search('zig comptime generics')
    await finished()
    await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/Every engine failed/)
    expect(await page.locator('.result').count()).toBe(0)
  })

  it("shows the server's configuration error when no engine is configured and keyless sources are off", async () => {
    const bare = await boot(emu, { envOverride: NO_ENGINES })
    extra.push(bare)
    await page.goto(bare.url)
    await search('anything at all')
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toMatch(/no search provider is configured.*BRAVE_API_KEY/)
  })

  it('answers with zero keys from the keyless sources, and says which variables add engines', async () => {
    const keyless = await boot(emu, { envOverride: ZERO_KEYS() })
    extra.push(keyless)
    // The page reads the search as server-sent events: the notice must arrive through the stream's `done` event.
    const streamed: string[] = []
    page.on('request', (r) => {
      if (r.url().endsWith('/v1/search')) streamed.push(r.headers().accept ?? '')
    })
    await page.goto(keyless.url)
    await search('what is a monad')
    await finished()
    expect(streamed).toEqual(['text/event-stream'])
    const tags = await page.locator('.result .tag').allTextContents()
    expect(tags).toContain('duckduckgo')
    expect(tags).toContain('wikipedia')
    const notice = page.getByRole('complementary', { name: 'Keyless sources only' })
    const text = (await notice.textContent()) ?? ''
    expect(text).toMatch(/duckduckgo, wikipedia/)
    for (const name of ENGINE_VARIABLES) expect(text).toContain(name)
    // Information, not a failure: no alert, and no engine was called.
    expect(await page.getByRole('alert').count()).toBe(0)
    expect(emu.requests.filter((r) => ['brave', 'exa', 'tavily', 'grok'].includes(r.service))).toHaveLength(0)
  })

  it("offers the server's configured sources, from /readyz, and searches only the ones ticked", async () => {
    const keyless = await boot(emu, { envOverride: ZERO_KEYS() })
    extra.push(keyless)
    const ready = (await (await fetch(`${keyless.url}/readyz`)).json()) as {
      providers: { name: string; configured: boolean }[]
    }
    const configured = ready.providers.filter((p) => p.configured).map((p) => p.name)
    await page.goto(keyless.url)
    const boxes = page.getByRole('group', { name: /Sources/ }).getByRole('checkbox')
    await expect.poll(() => boxes.count()).toBe(configured.length)
    const offered = await page
      .getByRole('group', { name: /Sources/ })
      .locator('label')
      .allTextContents()
    expect(offered).toEqual(configured)
    // No key, so no engine is offered; the keyless fallback is.
    expect(offered).toContain('duckduckgo')
    expect(offered).not.toContain('brave')

    await page.getByRole('checkbox', { name: 'wikipedia' }).check()
    await search('what is a monad')
    await finished()
    expect([...new Set(await page.locator('.result .tag').allTextContents())]).toEqual(['wikipedia'])
    expect(emu.requests.filter((r) => r.service === 'duckduckgo')).toHaveLength(0)
  })

  it("shows each result's passages under it with the query's words marked, page text as text", async () => {
    emu.pages.set('/evidence', {
      body: `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Cancellation in async Rust</title></head>
<body><main><article><h1>Cancellation in async Rust</h1>
<p>Dropping a future in async Rust cancels it at its next await point: structured concurrency scopes make cancellation explicit,
so a task never outlives the scope that spawned it. &lt;img src=x onerror=alert(1)&gt; stays text.</p>
</article></main></body></html>`,
    })
    const pages = pluginProvider('pages', () => ({
      results: ['/evidence', '/article'].map((path, i) => ({
        title: `Page ${path}`,
        url: `${emu.urls.pages}${path}`,
        snippet: 'async cancellation',
        publishedAt: null,
        provider: 'pages',
        rank: i + 1,
      })),
    }))
    const reading = await boot(emu, { envOverride: { ...NO_ENGINES, SEARCH_LAYER_KEYLESS: 'on' }, providers: [pages] })
    extra.push(reading)
    await page.goto(reading.url)
    await page.getByRole('checkbox', { name: 'pages' }).check()
    await page.getByLabel('Read pages').selectOption('3')
    await search('async rust cancellation')
    await finished()
    const first = page.locator('.result').first()
    const quoted = first.locator('.passage blockquote').first()
    await quoted.waitFor()
    expect(await quoted.textContent()).toContain('Dropping a future in async Rust cancels it at its next await point')
    const marked = (await first.locator('.passage mark').allTextContents()).map((m) => m.toLowerCase())
    expect(new Set(marked)).toEqual(new Set(['async', 'rust', 'cancellation']))
    // The page's markup is shown as text: no element came from it.
    expect(await quoted.textContent()).toContain('onerror=alert(1)')
    expect(await first.locator('.passage img').count()).toBe(0)
    // A result's passages come from its own page only.
    for (const text of await page.locator('.result').nth(1).locator('.passage blockquote').allTextContents())
      expect(text).not.toContain('Dropping a future')
  })

  it('shows no keyless notice when an engine key is set', async () => {
    // A server of its own: the shared one has open circuits after the every-engine-fails case.
    const keyed = await boot(emu)
    extra.push(keyed)
    await page.goto(keyed.url)
    await search('what is a monad')
    await finished()
    expect(await page.locator('.result').count()).toBeGreaterThan(0)
    expect(await page.getByRole('complementary', { name: 'Keyless sources only' }).count()).toBe(0)
  })

  it('asks for the key when the server wants one, keeps it for the tab and never puts it in a URL', async () => {
    const guarded = await boot(emu, { apiKeys: [KEY] })
    extra.push(guarded)
    const urls: string[] = []
    page.on('request', (r) => urls.push(r.url()))
    await page.goto(guarded.url)
    await page.getByLabel('API key', { exact: true }).fill(KEY.key)
    await page.getByRole('button', { name: 'Use key' }).click()
    await search('bun install speed')
    await finished()
    expect(await page.locator('.result').count()).toBeGreaterThan(0)
    expect(await page.evaluate("sessionStorage.getItem('search-layer:key')")).toBe(KEY.key)
    expect(await page.evaluate('JSON.stringify(localStorage)')).not.toContain(KEY.key)
    expect(urls.some((u) => u.includes(KEY.key))).toBe(false)
    // A new tab starts without it.
    const other = await context.browser()!.newContext()
    const fresh = await other.newPage()
    await fresh.goto(guarded.url)
    await fresh.getByLabel('API key', { exact: true }).waitFor()
    await other.close()
  })

  it('fills in a query from the link it was opened with, and runs it only when asked', async () => {
    // Any site can link here: opening the link must not spend the owner's quota on a search nobody asked for.
    const own = await boot(emu)
    extra.push(own)
    await page.goto(`${own.url}/#/?q=${encodeURIComponent('linked from elsewhere')}`)
    await page.getByRole('note').filter({ hasText: 'Opened from a link' }).waitFor()
    expect(await page.locator('#q').inputValue()).toBe('linked from elsewhere')
    expect(emu.requests.length).toBe(0)
    expect((await (await own.call('/v1/history')).json()).entries).toHaveLength(0)
    await page.locator('#q').press('Enter')
    await finished()
    await expect.poll(async () => (await (await own.call('/v1/history')).json()).entries.length).toBe(1)
    expect(await page.getByRole('note').count()).toBe(0)
  })

  it('re-runs a search from the history and deletes the history', async () => {
    const own = await boot(emu)
    extra.push(own)
    await page.goto(own.url)
    await search('rust async runtime')
    await finished()
    const entry = page.getByRole('link', { name: 'Re-run “rust async runtime”' })
    await entry.waitFor()
    await page.goto(`${own.url}/#/tools`)
    await page.goto(`${own.url}/#/`)
    await page.getByRole('link', { name: 'Re-run “rust async runtime”' }).click()
    await finished()
    expect(await page.locator('#q').inputValue()).toBe('rust async runtime')
    await expect.poll(async () => (await (await own.call('/v1/history')).json()).entries.length).toBe(2)
    // One entry, then the rest.
    await page.getByRole('button', { name: 'Delete “rust async runtime” from history' }).first().click()
    await expect.poll(async () => (await (await own.call('/v1/history')).json()).entries.length).toBe(1)
    await expect.poll(() => page.getByRole('button', { name: /from history$/ }).count()).toBe(1)
    await page.getByRole('button', { name: 'Delete all' }).click()
    await page.getByText('No searches yet.').waitFor()
  })

  it('opens a thread, draws its reference graph and clicks through it', async () => {
    await page.goto(`${server.url}/#/read?url=${encodeURIComponent('https://github.com/octo/demo/issues/2')}`)
    await page.getByRole('heading', { level: 1, name: 'Add a deadline to every outbound request' }).waitFor()
    const graph = page.getByRole('group', { name: /Reference graph/ })
    await graph.waitFor()
    const issueOne = graph.locator('[data-url$="/octo/demo/issues/1"]')
    expect(await issueOne.getAttribute('aria-label')).toMatch(/closes/)
    await issueOne.focus()
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { level: 1, name: /Client hangs forever/ }).waitFor()
    expect(page.url()).toContain(encodeURIComponent('https://github.com/octo/demo/issues/1'))
    await page.getByRole('group', { name: /Reference graph/ }).waitFor()
  })

  it('loads at most 150 KB of gzipped JavaScript on first load', async () => {
    const scripts: string[] = []
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.push(r.url())
    })
    await page.goto(server.url)
    await page.locator('#q').waitFor()
    expect(scripts.length).toBeGreaterThan(0)
    let gzipped = 0
    for (const url of scripts) {
      const response = await fetch(url, { headers: { 'accept-encoding': 'gzip' } })
      // fetch decompresses: the wire size is gzip of the body, as the server sends it.
      gzipped += gzipSync(Buffer.from(await response.arrayBuffer()), { level: 9 }).length
    }
    expect(gzipped).toBeLessThanOrEqual(150 * 1024)
  })

  it('shows the tool calls an agent made over MCP as a timeline', async () => {
    const own = await boot(emu)
    extra.push(own)
    const client = new Client({ name: 'web-e2e', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${own.url}/mcp`)))
    await client.callTool({ name: 'extract_refs', arguments: { urls: ['https://github.com/octo/demo/issues/2'] } })
    await client.close()
    await expect.poll(async () => (await (await own.call('/v1/tool-calls')).json()).entries.length).toBe(1)
    await page.goto(`${own.url}/#/tools`)
    const node = page.locator('.tool-node[data-tool=extract_refs]')
    await node.waitFor()
    expect(await node.textContent()).toMatch(/MCP.*ok/)
    await node.getByText('Inputs and result').click()
    expect(await node.locator('.args').textContent()).toContain('octo/demo/issues/2')
  })
})
