import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Emulator, startEmulator } from '@search-layer/testkit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CreateAppOptions, createApp } from './index.js'

let emu: Emulator
beforeAll(async () => {
  emu = await startEmulator()
})
afterAll(async () => {
  await emu.close()
})

const wire = (options: CreateAppOptions = {}) =>
  createApp({
    env: { ...emu.env, HOME: mkdtempSync(join(tmpdir(), 'sl-app-')) },
    dataDir: mkdtempSync(join(tmpdir(), 'sl-app-data-')),
    logLevel: 'silent',
    providerRateLimits: false,
    ...options,
  })

describe('createApp (app.request, no HTTP server)', () => {
  it('serves routes without a socket', async () => {
    const { app, close } = wire()
    expect(await (await app.request('/healthz')).json()).toEqual({ status: 'ok' })
    const res = await app.request('/v1/search', { method: 'POST', body: JSON.stringify({ query: 'webtransport', mode: 'fast' }), headers: { 'content-type': 'application/json' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    await close()
  })

  it('mounts extra routes behind the same auth, with the shared tools', async () => {
    const { app, close } = wire({
      apiKeys: [{ name: 'agent', key: 'agent-key-0123456789' }],
      routes: (hono, context) => {
        hono.post('/mcp', async (c) => {
          const result = await context.runTool('web_search', { query: 'rust async', max_results: 2 }, { who: c.get('who'), signal: c.get('signal') })
          return c.json({ who: c.get('who'), tools: context.tools.map((t) => t.name), isError: result.isError, content: result.content })
        })
      },
    })
    expect((await app.request('/mcp', { method: 'POST' })).status).toBe(401)
    const res = await app.request('/mcp', { method: 'POST', headers: { authorization: 'Bearer agent-key-0123456789' } })
    const body = (await res.json()) as { content: string }
    expect(body).toMatchObject({ who: 'agent', tools: ['web_search', 'web_fetch', 'fetch_thread'], isError: false })
    expect(body.content).toMatch(/^Search results for "rust async" \(2\):/)
    await close()
  })

  it('throws ConfigError for bad options', () => {
    expect(() => wire({ port: -5 })).toThrow(/port/)
  })
})
