import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pluginProvider } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ServerApp, createApp } from './index.js'

// `read` on /v1/search over real pages on loopback: a keyless plug-in answers with the emulator's /pages, read
// through the emulator's env opt-in SEARCH_LAYER_ALLOW_PRIVATE_HOSTS=1 (what a self-hosted server would set).
const emu = useEmulator({ resetEachTest: false })

const SELECT_PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>tokio::select! in loops</title></head>
<body><main><article><h1>tokio::select! in loops</h1>
<p>When tokio::select! runs in a loop, every branch that loses the race is dropped, so a future that is not
cancellation safe loses the data it had read. Keep such futures outside the loop and pass a reference.</p>
</article></main></body></html>`

const pagesProvider = pluginProvider('pages', () => ({
  results: ['/select', '/not-found'].map((path, i) => ({
    title: `Page ${path}`,
    url: `${emu.urls.pages}${path}`,
    snippet: 'tokio select',
    publishedAt: null,
    provider: 'pages',
    rank: i + 1,
  })),
}))

let server: ServerApp
beforeAll(() => {
  emu.pages.set('/select', { body: SELECT_PAGE })
  server = createApp({
    env: { ...emu.env, HOME: mkdtempSync(join(tmpdir(), 'sl-read-')) },
    dataDir: mkdtempSync(join(tmpdir(), 'sl-read-data-')),
    logLevel: 'silent',
    providerRateLimits: false,
    providers: [pagesProvider],
    mcp: false,
    webDir: false,
  })
})
afterAll(() => server.close())

const post = (body: unknown) =>
  server.app.request('/v1/search', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  })
// Time enough for a loaded machine: what is read is under test, not how fast.
const ask = { sources: ['pages'], intent: 'none', deadlineMs: 60_000 }

describe('read on /v1/search', () => {
  it('POST read: N returns reads and passages', async () => {
    const res = await post({
      ...ask,
      query: 'is tokio select cancellation safe',
      read: { pages: 2, timeoutMs: 15_000 },
    })
    expect(res.status).toBe(200)
    const body = (await res.json()) as {
      reads: { url: string; status: string; kind: string }[]
      passages: { id: string; url: string; text: string }[]
    }
    expect(body.reads.map((r) => [r.url, r.status])).toEqual([
      [`${emu.urls.pages}/select`, 'ok'],
      [`${emu.urls.pages}/not-found`, 'failed'],
    ])
    expect(body.passages[0]).toMatchObject({ id: 'p1', url: `${emu.urls.pages}/select` })
  })

  it('GET ?read=N&format=markdown includes the Evidence block', async () => {
    const res = await server.app.request(
      `/v1/search?q=${encodeURIComponent('tokio select cancellation')}&sources=pages&intent=none&read=2&format=markdown`,
    )
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).toContain('## Evidence')
    // The answer line comes from the best passage (synthesis builds it for every surface), citing it.
    expect(text.split('\n')[0]).toMatch(/ cancellation .*\[1\] \[p1\]$/)
    expect(text).toMatch(/\*\*\[p1\]\*\* \[Page \/select\]/)
    expect(text).toMatch(/^- failed \(http\): <http:\/\/127\.0\.0\.1:\d+\/pages\/not-found>/m)
  })

  it('refuses read outside 0–10 with 400 naming the field and the range', async () => {
    const responses = [
      await server.app.request('/v1/search?q=tokio&read=11'),
      await post({ query: 'tokio', read: -1 }),
      await post({ query: 'tokio', read: 2.5 }),
    ]
    for (const res of responses) {
      expect(res.status).toBe(400)
      const body = (await res.json()) as { issues: { path: string; message: string }[] }
      expect(body.issues[0]).toMatchObject({ path: 'read', message: expect.stringMatching(/from 0 to 10/) })
    }
  })
})
