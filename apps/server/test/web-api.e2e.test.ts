import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { useEmulator } from '@search-layer/testkit/vitest'
import { afterEach, describe, expect, it } from 'vitest'
import { type Booted, type Json, boot } from './_helpers.js'

const emu = useEmulator()
const servers: Booted[] = []
const start = async (options: Parameters<typeof boot>[1] = {}) => {
  const server = await boot(emu, options)
  servers.push(server)
  return server
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

const NO_ENGINES = {
  BRAVE_API_KEY: undefined,
  EXA_API_KEY: undefined,
  TAVILY_API_KEY: undefined,
  XAI_API_KEY: undefined,
}

/** Reads a server-sent event stream into `{ event, data }` pairs. */
async function readEvents(response: Response): Promise<{ event: string; data: Json }[]> {
  const text = await response.text()
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const event = /^event: ?(.*)$/m.exec(block)?.[1] ?? 'message'
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n')
      return { event, data: JSON.parse(data) as Json }
    })
}

describe('/v1/search as server-sent events', () => {
  it('streams plan, progress, results and the response, and records history', async () => {
    const srv = await start()
    // Waiting for all: a settled search may stream a late engine's results and `update` after `done` (late-answers.e2e).
    const response = await srv.call('/v1/search?q=rust+async+runtime&cache=false&wait=all', {
      headers: { accept: 'text/event-stream' },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/event-stream')
    const events = await readEvents(response as unknown as Response)
    expect(events[0]!.event).toBe('plan')
    expect(events[0]!.data.queries.length).toBeGreaterThan(0)
    expect(events.some((e) => e.event === 'progress')).toBe(true)
    expect(events.some((e) => e.event === 'results')).toBe(true)
    const done = events.at(-1)!
    expect(done.event).toBe('done')
    expect(done.data.response.count).toBeGreaterThan(0)
    const history = await (await srv.call('/v1/history')).json()
    expect(history.entries[0]).toMatchObject({ query: 'rust async runtime' })
  })

  it('answers the JSON route as before without the Accept header', async () => {
    const srv = await start()
    const response = await srv.call('/v1/search', { json: { query: 'tokio', maxQueries: 1 } })
    expect(response.headers.get('content-type')).toContain('application/json')
    expect((await response.json()).count).toBeGreaterThan(0)
  })

  it('answers a configuration problem with the JSON error and status, before any event', async () => {
    const srv = await start({ envOverride: NO_ENGINES })
    const response = await srv.call('/v1/search', {
      json: { query: 'tokio' },
      headers: { accept: 'text/event-stream' },
    })
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({
      code: 'not_configured',
      error: expect.stringMatching(/BRAVE_API_KEY/),
    })
  })

  it('refuses a bad request with 400 and the issues', async () => {
    const srv = await start()
    const response = await srv.call('/v1/search?q=x&num=99', { headers: { accept: 'text/event-stream' } })
    expect(response.status).toBe(400)
    expect((await response.json()).code).toBe('invalid_input')
  })

  it('needs the bearer key like every other route', async () => {
    const srv = await start({ apiKeys: [{ name: 'alice', key: 'k-alice-0123456789' }] })
    const denied = await srv.call('/v1/search?q=x', { headers: { accept: 'text/event-stream' } })
    expect(denied.status).toBe(401)
    const allowed = await srv.call('/v1/search?q=tokio', {
      headers: { accept: 'text/event-stream' },
      key: 'k-alice-0123456789',
    })
    expect(allowed.status).toBe(200)
    expect((await readEvents(allowed as unknown as Response)).at(-1)!.event).toBe('done')
  })
})

describe('/v1/tool-calls', () => {
  it('logs /api/tools and /mcp calls per caller, newest first, and forgets them on DELETE', async () => {
    const keys = [
      { name: 'alice', key: 'k-alice-0123456789' },
      { name: 'bob', key: 'k-bob-0123456789xx' },
    ]
    const srv = await start({ apiKeys: keys })
    const api = await srv.call('/api/tools/web_search', { json: { query: 'tokio' }, key: keys[0]!.key })
    expect(api.status).toBe(200)
    const client = new Client({ name: 'tool-log', version: '1.0.0' })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${keys[0]!.key}` } },
      }),
    )
    await client.callTool({ name: 'extract_refs', arguments: { urls: ['https://github.com/octo/demo/issues/2'] } })
    await client.close()
    let entries: Json[] = []
    for (let i = 0; i < 50 && entries.length < 2; i++) {
      entries = (await (await srv.call('/v1/tool-calls', { key: keys[0]!.key })).json()).entries
      if (entries.length < 2) await new Promise((r) => setTimeout(r, 20))
    }
    expect(entries.map((e) => [e.tool, e.via, e.outcome])).toEqual([
      ['extract_refs', 'mcp', 'ok'],
      ['web_search', 'api', 'ok'],
    ])
    expect(JSON.parse(entries[1]!.args)).toEqual({ query: 'tokio' })
    expect(entries[0]!.ms).toBeGreaterThanOrEqual(0)
    expect(JSON.stringify(entries)).not.toContain(keys[0]!.key)
    // Another caller sees none of them.
    expect((await (await srv.call('/v1/tool-calls', { key: keys[1]!.key })).json()).entries).toEqual([])
    expect((await (await srv.call('/v1/tool-calls', { method: 'DELETE', key: keys[0]!.key })).json()).deleted).toBe(2)
    expect((await (await srv.call('/v1/tool-calls', { key: keys[0]!.key })).json()).entries).toEqual([])
  })

  it('keeps no URL credentials in the tool-call log (args and summary) or the search history', async () => {
    const srv = await start()
    const secretUrl = 'https://user:pass@host.example/x'
    await srv.call('/api/tools/web_search', { json: { query: secretUrl } })
    await srv.call('/api/tools/web_fetch', { json: { url: 'http://admin:hunter22@127.0.0.1:1/private' } })
    await srv.call(`/v1/search?q=${encodeURIComponent(secretUrl)}&cache=false`)
    const entries = (await (await srv.call('/v1/tool-calls')).json()).entries as Json[]
    expect(entries.map((e) => e.tool)).toEqual(['web_fetch', 'web_search'])
    expect(JSON.parse(entries[1]!.args)).toEqual({ query: 'https://host.example/x' })
    expect(JSON.parse(entries[0]!.args)).toEqual({ url: 'http://127.0.0.1:1/private' })
    const history = (await (await srv.call('/v1/history')).json()).entries as Json[]
    expect(history[0]).toMatchObject({ query: 'https://host.example/x' })
    expect(JSON.stringify([entries, history])).not.toMatch(/user:|pass@|admin|hunter22/)
  })

  it('logs a refused call as failed with its status', async () => {
    const srv = await start()
    await srv.call('/api/tools/web_search', { json: { query: '' } })
    const [entry] = (await (await srv.call('/v1/tool-calls')).json()).entries
    expect(entry).toMatchObject({ tool: 'web_search', outcome: 'failed', status: 400 })
  })
})

describe('the web app at /', () => {
  it('serves index.html and hashed assets without a key, gzipped, with a strict CSP', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sl-web-'))
    mkdirSync(join(dir, 'assets'))
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><title>search-layer</title><script src="/assets/app-1.js"></script>',
    )
    writeFileSync(join(dir, 'assets', 'app-1.js'), `console.log(${JSON.stringify('x'.repeat(2000))})`)
    const srv = await start({ webDir: dir, apiKeys: [{ name: 'alice', key: 'k-alice-0123456789' }] })
    const page = await srv.call('/')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(await page.text()).toContain('<title>search-layer</title>')
    const asset = await srv.call('/assets/app-1.js', { headers: { 'accept-encoding': 'gzip' } })
    expect(asset.status).toBe(200)
    expect(asset.headers.get('content-type')).toContain('text/javascript')
    expect(asset.headers.get('cache-control')).toContain('immutable')
    expect((await srv.call('/assets/missing.js')).status).toBe(401)
    // The API behind it still needs the key.
    expect((await srv.call('/v1/history')).status).toBe(401)
  })
})
