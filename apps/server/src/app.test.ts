import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { type CreateAppOptions, createApp } from './index.js'

const emu = useEmulator({ resetEachTest: false })

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
    const res = await app.request('/v1/search', {
      method: 'POST',
      body: JSON.stringify({ query: 'webtransport', mode: 'fast' }),
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    await close()
  })

  it('mounts extra routes behind the same auth, with the shared tools', async () => {
    const { app, close } = wire({
      apiKeys: [{ name: 'agent', key: 'agent-key-0123456789' }],
      routes: (hono, context) => {
        hono.post('/agent', async (c) => {
          const result = await context.runTool(
            'web_search',
            { query: 'rust async', max_results: 2 },
            { who: c.get('who'), signal: c.get('signal') },
          )
          return c.json({
            who: c.get('who'),
            tools: context.toolNames,
            isError: result.isError,
            content: result.content,
            data: result.data,
          })
        })
      },
    })
    expect((await app.request('/agent', { method: 'POST' })).status).toBe(401)
    const res = await app.request('/agent', {
      method: 'POST',
      headers: { authorization: 'Bearer agent-key-0123456789' },
    })
    const body = (await res.json()) as { content: string; data: { results: unknown[] } }
    expect(body).toMatchObject({
      who: 'agent',
      tools: ['web_search', 'web_fetch', 'fetch_thread', 'extract_refs'],
      isError: false,
    })
    expect(body.data.results).toHaveLength(2)
    expect(body.content).toMatch(/^\[1\] .+\n {4}https?:\/\//m)
    await close()
  })

  it.each([
    ['mounted by default', {}, 406],
    ['left out with mcp: false', { mcp: false }, 404],
  ] as const)('/mcp is %s', async (_name, options, status) => {
    const { app, close } = wire(options)
    // A POST without the Streamable HTTP accept header reaches the MCP transport, which refuses it with 406.
    const res = await app.request('/mcp', {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(status)
    await close()
  })

  it('throws ConfigError for bad options', () => {
    expect(() => wire({ port: -5 })).toThrow(/port/)
  })
})
