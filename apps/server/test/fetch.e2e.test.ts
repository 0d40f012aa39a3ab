import { setTimeout as sleep } from 'node:timers/promises'
import { useEmulator } from '@search-layer/testkit/vitest'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { type Booted, boot } from './_helpers.js'

const emu = useEmulator()
const servers: Booted[] = []
// The cases that need no option of their own share one server. A server's close stops the process-wide extraction
// workers, and a worker started from the sources costs about a second of CPU: a server per case started nine.
let shared: Booted | undefined
const start = async (options?: Parameters<typeof boot>[1]) => {
  if (!options) {
    shared ??= await boot(emu)
    return shared
  }
  const server = await boot(emu, options)
  servers.push(server)
  return server
}
const issue = (n: number) => `https://github.com/octo/demo/issues/${n}`

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})
afterAll(async () => {
  await shared?.close()
})

describe('POST /v1/fetch', () => {
  it('returns the readable page', async () => {
    const srv = await start()
    const res = await srv.call('/v1/fetch', { json: { url: `${emu.urls.pages}/article` } })
    expect(res.status).toBe(200)
    const page = await res.json()
    expect(page.title).toMatch(/Structured concurrency in async Rust/)
    expect(page.markdown.length).toBeGreaterThan(200)
    expect(page.truncated).toBe(false)
  })

  it('cuts markdown and text at maxChars', async () => {
    const srv = await start()
    const page = await (
      await srv.call('/v1/fetch', { json: { url: `${emu.urls.pages}/article`, maxChars: 300 } })
    ).json()
    expect(page.markdown.length).toBe(300)
    expect(page.truncated).toBe(true)
  })

  it.each([
    [
      '1,200 nested <div>s (13 KB)',
      () => `<html><body>${'<div>'.repeat(1200)}<p>Deep.</p>${'</div>'.repeat(1200)}</body></html>`,
      /1,20\d levels of nesting \(limit 256\)/,
    ],
    [
      '100,000 links (3.9 MB)',
      () =>
        `<html><body>${Array.from({ length: 100_000 }, (_, i) => `<a href="/p/${i}">link number ${i}</a> `).join('')}</body></html>`,
      /100,00\d elements \(limit 40,000\)/,
    ],
  ])('degrades a page of %s to plain text while /healthz keeps answering', async (_name, html, reason) => {
    emu.pages.set('/pathological', { body: html(), contentType: 'text/html' })
    const srv = await start()
    let fetchDone = false
    const fetching = srv.call('/v1/fetch', { json: { url: `${emu.urls.pages}/pathological` } }).then(async (res) => {
      fetchDone = true
      return { status: res.status, page: await res.json() }
    })
    // Health checks answered one after another while the page is still being fetched and read, 10 ms apart: back to
    // back, they kept this process's thread busy through the whole read.
    let healthyWhileFetching = 0
    while (!fetchDone) {
      const health = await srv.call('/healthz')
      if (health.status === 200 && !fetchDone) healthyWhileFetching++
      await sleep(10)
    }
    const { status, page } = await fetching
    expect(status).toBe(200)
    expect(page.degraded).toMatch(reason)
    expect(healthyWhileFetching).toBeGreaterThan(0)
  })

  // 250-deep <div> towers, 150 of them: under the depth and element bounds, and 52-78 s of Readability before
  // page-fetch's pre-scan also bounded the total nesting depth; now degraded before any DOM work.
  const slowPage = () =>
    `<html><body>${Array.from({ length: 150 }, (_, i) => `${'<div>'.repeat(250)}<p>Paragraph ${i}, deep down.</p>${'</div>'.repeat(250)}`).join('')}</body></html>`

  it('a page that would take Readability a minute comes back degraded at once, and the workers stay free', async () => {
    emu.pages.set('/slow-to-read', { body: slowPage(), contentType: 'text/html' })
    // 10 s: far below the minute the page used to cost, so a page read in full would end in a 504; 3 s was exceeded
    // by the degraded read itself on a 2-core machine running other suites beside it (3.3 s seen).
    const srv = await start({ requestTimeoutMs: 10_000 })
    const slow = await Promise.all(
      [1, 2].map(() => srv.call('/v1/fetch', { json: { url: `${emu.urls.pages}/slow-to-read` } })),
    )
    for (const res of slow) {
      expect(res.status).toBe(200)
      expect((await res.json()).degraded).toMatch(/total nesting depth 4,819,\d{3}, every element's depth summed/)
    }
    const after = await srv.call('/v1/fetch', { json: { url: `${emu.urls.pages}/article` } })
    expect(after.status).toBe(200)
    const page = await after.json()
    expect(page.title).toMatch(/Structured concurrency in async Rust/)
    expect(page.degraded).toBeUndefined()
  })

  it('a page slower to arrive than the fetch deadline ends in a 504 timeout at that deadline', async () => {
    // 5 s: without a deadline of its own the fetch would wait for it (page-fetch's default is 10 s, the request's 30 s).
    emu.fault('pages', { latencyMs: 5000, times: 1 })
    const srv = await start({ fetchTimeoutMs: 1000 })
    const res = await srv.call('/v1/fetch', { json: { url: `${emu.urls.pages}/article` } })
    expect(res.status).toBe(504)
    const body = await res.json()
    expect(body).toMatchObject({ code: 'timeout', kind: 'timeout' })
    expect(body.error).toMatch(/did not complete within 1000 ms$/)
    // The deadline is per fetch: the next one, on time, is read as usual.
    const next = await srv.call('/v1/fetch', { json: { url: `${emu.urls.pages}/article` } })
    expect(next.status).toBe(200)
  })

  it.each([
    [
      'a private address without SEARCH_LAYER_ALLOW_PRIVATE_HOSTS',
      '/article',
      { SEARCH_LAYER_ALLOW_PRIVATE_HOSTS: undefined },
      403,
      'blocked',
    ],
    ['an upstream 404', '/not-found', {}, 502, 'upstream'],
    ['a binary body', '/binary', {}, 502, 'upstream'],
    ['a file: URL', 'file:///etc/passwd', {}, 403, 'blocked'],
  ])('maps %s to %s', async (_name, path, envOverride, status, code) => {
    const srv = await start(Object.keys(envOverride).length > 0 ? { envOverride } : undefined)
    const res = await srv.call('/v1/fetch', { json: { url: path.startsWith('/') ? `${emu.urls.pages}${path}` : path } })
    expect(res.status).toBe(status)
    const body = await res.json()
    expect(body.code).toBe(code)
    expect(body.kind).toEqual(expect.any(String))
  })

  it.each([
    ['not a URL', { url: 'not a url' }],
    ['no url', {}],
  ])('%s is 400', async (_name, json) => {
    const srv = await start()
    const res = await srv.call('/v1/fetch', { json })
    expect(res.status).toBe(400)
    expect((await res.json()).issues[0].path).toBe('url')
  })
})

describe('POST /v1/thread and /v1/refs', () => {
  it('reads a GitHub issue with comments cut at maxComments and typed references', async () => {
    const srv = await start()
    const res = await srv.call('/v1/thread', { json: { url: issue(1), maxComments: 10 } })
    expect(res.status).toBe(200)
    const thread = await res.json()
    expect(thread.type).toBe('github_issue')
    expect(thread.comments).toHaveLength(10)
    expect(thread.refs.length).toBeGreaterThan(0)
  })

  it('a missing issue is a 502 carrying the upstream 404', async () => {
    const srv = await start()
    const res = await srv.call('/v1/thread', { json: { url: issue(404) } })
    expect(res.status).toBe(502)
    expect(await res.json()).toMatchObject({ code: 'upstream', status: 404 })
  })

  it('/v1/refs returns references per URL in order, with per-URL errors', async () => {
    const srv = await start()
    const urls = [issue(1), `${emu.urls.pages}/article`, issue(404)]
    const { results } = await (await srv.call('/v1/refs', { json: { urls } })).json()
    expect(results.map((r: { url: string }) => r.url)).toEqual(urls)
    expect(results[0].refs.length).toBeGreaterThan(0)
    expect(results[2].error).toMatchObject({ kind: 'upstream' })
  })

  it('/v1/refs refuses more than 50 URLs', async () => {
    const srv = await start()
    const res = await srv.call('/v1/refs', {
      json: { urls: Array.from({ length: 51 }, (_, i) => `https://example.com/${i}`) },
    })
    expect(res.status).toBe(400)
    expect((await res.json()).issues[0].path).toBe('urls')
  })
})

describe('web_fetch and fetch_thread tools', () => {
  it('are listed with their JSON Schemas', async () => {
    const srv = await start()
    const { tools } = await (await srv.call('/api/tools')).json()
    expect(tools.map((t: { name: string }) => t.name)).toEqual([
      'web_search',
      'web_fetch',
      'fetch_thread',
      'extract_refs',
    ])
    expect(tools[1].parameters).toMatchObject({
      properties: { url: { type: 'string' } },
      required: ['url'],
      additionalProperties: false,
    })
    expect(tools[2].parameters).toMatchObject({
      properties: { url: { type: 'string' }, max_comments: { type: 'integer', maximum: 500 } },
      required: ['url'],
    })
    expect(tools[3].parameters).toMatchObject({
      properties: { urls: { type: 'array', maxItems: 10 } },
      required: ['urls'],
    })
  })

  it('web_fetch returns the page as markdown', async () => {
    const srv = await start()
    const body = await (await srv.call('/api/tools/web_fetch', { json: { url: `${emu.urls.pages}/article` } })).json()
    expect(body.isError).toBe(false)
    expect(body.content).toMatch(
      /^Fetched page [^\n]*\n[^\n]*\n<<<page-content [0-9a-f]{8}>>>\n# Structured concurrency in async Rust/,
    )
    expect(body.content).toContain(`Source: ${emu.urls.pages}/article`)
    expect(body.data).toMatchObject({ title: expect.stringMatching(/^Structured concurrency/), truncated: false })
  })

  it('fetch_thread returns the thread with comments and references', async () => {
    const srv = await start()
    const body = await (await srv.call('/api/tools/fetch_thread', { json: { url: issue(1), max_comments: 3 } })).json()
    expect(body.isError).toBe(false)
    expect(body.content).toContain('## Comments')
    expect(body.content).toContain('## References\n- duplicate: ')
    expect(body.data).toMatchObject({ type: 'github_issue', commentCount: 3 })
  })

  it.each([
    [
      'web_fetch',
      { url: `/not-found` },
      'http',
      /^The page does not exist \(the site answered "not found" or "gone"\)\. Check the URL; retrying will not help\./,
      {},
    ],
    ['web_fetch', { url: `/binary` }, 'unsupported_type', /^That URL is not a readable page/, {}],
    [
      'web_fetch',
      { url: `/article` },
      'blocked',
      /^That address is private or local, so it is not fetched\./,
      { SEARCH_LAYER_ALLOW_PRIVATE_HOSTS: undefined },
    ],
    [
      'fetch_thread',
      { url: issue(404) },
      'upstream',
      /^GitHub has no such thread or page \(HTTP 404\): .* Check the URL; retrying will not help\.\n[^\n]*\n<<<page-content [0-9a-f]{8}>>>\nGitHub has no issue octo\/demo#404/,
      {},
    ],
    [
      'fetch_thread',
      { url: issue(3) },
      'upstream',
      /^GitHub says it was deleted \(HTTP 410\)\. Check the URL; retrying will not help\.\n[^\n]*\n<<<page-content [0-9a-f]{8}>>>\nGitHub issue octo\/demo#3 was deleted/,
      {},
    ],
  ] as const)('%s %j fails with a friendly sentence (%s)', async (tool, args, kind, sentence, envOverride) => {
    const srv = await start(Object.keys(envOverride).length > 0 ? { envOverride } : undefined)
    const url = args.url.startsWith('/') ? `${emu.urls.pages}${args.url}` : args.url
    const res = await srv.call(`/api/tools/${tool}`, { json: { url } })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toMatchObject({ isError: true, data: { error: { kind } } })
    expect(body.content).toMatch(sentence)
  })

  it('web_fetch with a URL that is not http(s) is 400 naming the argument', async () => {
    const srv = await start()
    const res = await srv.call('/api/tools/web_fetch', { json: { url: 'nonsense' } })
    expect(res.status).toBe(400)
    expect((await res.json()).issues).toEqual([
      { path: 'url', message: 'expected an http(s) URL such as https://example.com/page' },
    ])
  })
})

describe('search format=', () => {
  it.each([
    ['markdown', /^text\/markdown/],
    ['text', /^text\/plain/],
  ])('POST /v1/search?format=%s renders the synthesis', async (format, type) => {
    const srv = await start()
    const res = await srv.call(`/v1/search?format=${format}&maxChars=1500`, {
      json: { query: 'rust async runtime tokio', mode: 'fast' },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(type)
    const text = await res.text()
    expect(text.length).toBeGreaterThan(50)
    expect(text.length).toBeLessThanOrEqual(1500)
    expect(text).toMatch(/https?:\/\//)
  })

  it('format=json returns the synthesis JSON; GET takes format too', async () => {
    const srv = await start()
    const body = await (await srv.call('/v1/search?q=bun%20vs%20deno&format=json')).json()
    expect(body).toMatchObject({ groups: expect.any(Array), conflicts: expect.any(Array), omitted: expect.any(Number) })
    expect(body.groups[0].results[0].url).toMatch(/^https?:\/\//)
  })

  it('an unknown format is 400', async () => {
    const srv = await start()
    const res = await srv.call('/v1/search?format=pdf', { json: { query: 'x' } })
    expect(res.status).toBe(400)
    expect((await res.json()).issues[0].path).toBe('format')
  })
})
