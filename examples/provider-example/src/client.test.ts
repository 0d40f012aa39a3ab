import { type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolveProviderDefinition, validateProviderDefinition } from '@search-layer/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import plugin, { createExampleProvider } from './index.js'

// A loopback stand-in for the vendor's API (no mocked fetch): GET /search?q=&n= with a Bearer key.
let server: Server
let baseUrl: string
let status = 200
beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    res.setHeader('content-type', 'application/json')
    if (req.headers.authorization !== 'Bearer test-key') {
      res.statusCode = 401
      return res.end('{"error":"bad key"}')
    }
    res.statusCode = status
    const n = Number(url.searchParams.get('n'))
    const items = [
      { title: `About ${url.searchParams.get('q')}`, link: 'https://docs.example.org/a', summary: 'A page.' },
      { title: 'No URL', link: 'not a url' },
      { title: 'Dated', link: 'https://blog.example.org/b', summary: 'B.', date: '2026-01-02' },
    ].slice(0, n + 1)
    res.end(JSON.stringify(status === 200 ? { items } : { error: 'down' }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const env = { HOME: '/nonexistent-home', EXAMPLE_SEARCH_API_KEY: 'test-key' }

describe('search-layer-provider-example', () => {
  it('default-exports a valid definition whose create() builds a provider of the same id', () => {
    expect(validateProviderDefinition(plugin, 'example')).toEqual(resolveProviderDefinition(plugin))
    expect(plugin.create({ env }).name).toBe('example')
  })

  it('maps the API answer to results tagged with its id, dropping items without a URL', async () => {
    const provider = createExampleProvider({ baseUrl, env })
    const res = await provider.search({ query: 'rust', num: 2 })
    expect(res.results).toEqual([
      {
        title: 'About rust',
        url: 'https://docs.example.org/a',
        snippet: 'A page.',
        publishedAt: null,
        provider: 'example',
        rank: 1,
      },
      {
        title: 'Dated',
        url: 'https://blog.example.org/b',
        snippet: 'B.',
        publishedAt: '2026-01-02',
        provider: 'example',
        rank: 3,
      },
    ])
    expect(res.dropped).toBe(1)
  })

  it.each([
    ['no key', { HOME: '/nonexistent-home' }, 200, { kind: 'config' }, /set EXAMPLE_SEARCH_API_KEY/],
    ['a wrong key', { ...env, EXAMPLE_SEARCH_API_KEY: 'wrong-key-123' }, 200, { kind: 'auth' }, /HTTP 401/],
    ['a server error', env, 503, { kind: 'upstream' }, /503/],
  ])('%s is a ProviderError of the right kind', async (_label, callEnv, answer, kind, message) => {
    status = answer
    const provider = createExampleProvider({ baseUrl, env: callEnv, retries: 0 })
    const error = await provider.search({ query: 'x' }).catch((e: unknown) => e)
    status = 200
    expect(error).toMatchObject({ name: 'ProviderError', provider: 'example', ...kind })
    expect((error as Error).message).toMatch(message)
    expect((error as Error).message).not.toContain('wrong-key-123')
  })
})
