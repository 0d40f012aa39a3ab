import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Emulator, startEmulator } from '@search-layer/testkit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runBin } from './_run.js'

// `--read` on the built bin, reading real pages on loopback: the example plug-in (examples/provider-example) asks a
// small API here whose hits are the emulator's /pages. The emulator's env has SEARCH_LAYER_ALLOW_PRIVATE_HOSTS=1,
// the self-hosted opt-in, which the CLI hands to page-fetch with the rest of its env.
const EXAMPLE_PACKAGE = fileURLToPath(new URL('../../../examples/provider-example', import.meta.url))

const SELECT_PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>tokio::select! in loops</title></head>
<body><main><article><h1>tokio::select! in loops</h1>
<h2>Cancellation safety</h2>
<p>When tokio::select! runs in a loop, every branch that loses the race is dropped. A future that is not
cancellation safe, such as one reading into a buffer it owns, loses the data it had read. Keep such futures
outside the loop and pass a mutable reference to select! instead.</p>
</article></main></body></html>`

let emu: Emulator
let api: Server
let apiUrl: string
beforeAll(async () => {
  emu = await startEmulator()
  emu.pages.set('/select', { body: SELECT_PAGE })
  api = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json')
    const items = ['/select', '/not-found'].map((path) => ({
      title: `Page ${path}`,
      link: `${emu.urls.pages}${path}`,
      summary: 'tokio select',
    }))
    res.end(JSON.stringify({ items }))
  })
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve))
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`
})
afterAll(async () => {
  await emu.close()
  await new Promise<void>((resolve) => api.close(() => resolve()))
})

function envFor(): Record<string, string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'sl-cli-read-'))
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(EXAMPLE_PACKAGE, join(dir, 'node_modules', 'search-layer-provider-example'), 'dir')
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ plugins: ['search-layer-provider-example'] }))
  return {
    ...Object.fromEntries(Object.entries(emu.env).filter(([k]) => !k.startsWith('SEARCH_LAYER_LLM_'))),
    HOME: dir,
    SEARCH_LAYER_CONFIG: join(dir, 'config.json'),
    SEARCH_LAYER_CACHE_DIR: join(dir, 'cache'),
    SEARCH_LAYER_RATE_LIMITS: 'off',
    EXAMPLE_SEARCH_URL: apiUrl,
    EXAMPLE_SEARCH_API_KEY: 'example-key-123',
  }
}

// Time enough for a loaded machine (the extraction worker starts in the child): what is read is under test.
const ask = ['--source', 'example', '--intent', 'none', '--timeout', '60000']

interface ReadJson {
  reads: { url: string; status: string; kind: string }[]
  passages: { id: string; url: string; text: string }[]
}

describe('search-layer --read (built bin)', () => {
  it('reads the top results: JSON carries reads and passages, `--read "query"` keeps the query', async () => {
    const r = await runBin(['--read', 'is tokio select cancellation safe', '--json', ...ask], envFor())
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as ReadJson & { query: string }
    expect(out.query).toBe('is tokio select cancellation safe')
    expect(out.reads.map((x) => [x.url, x.status, x.kind])).toEqual([
      [`${emu.urls.pages}/select`, 'ok', 'ok'],
      [`${emu.urls.pages}/not-found`, 'failed', 'http'],
    ])
    expect(out.passages[0]).toMatchObject({ id: 'p1', url: `${emu.urls.pages}/select` })
    expect(out.passages[0]!.text).toContain('cancellation safe')
  })

  it('prints the Evidence block in markdown, with the page not read on one line', async () => {
    const r = await runBin(
      ['tokio select cancellation safe', '--read', '2', '--read-tokens', '500', '--format', 'markdown', ...ask],
      envFor(),
    )
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('## Evidence')
    expect(r.stdout).toMatch(
      /\*\*\[p1\]\*\* \[Page \/select\]\(http:\/\/127\.0\.0\.1:\d+\/pages\/select\) \(result 1\)/,
    )
    expect(r.stdout).toContain('> When tokio::select! runs in a loop')
    expect(r.stdout).toMatch(/^- failed \(http\): <http:\/\/127\.0\.0\.1:\d+\/pages\/not-found> — .+$/m)
  })

  it('refuses --read 11, -1 and 2.5 with exit 2 naming --read and 0 to 10', async () => {
    for (const bad of ['11', '-1', '2.5']) {
      const r = await runBin(['tokio', '--read', bad, ...ask], envFor())
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`--read must be a whole number from 0 to 10 (got "${bad}")`)
    }
  })
})
