import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { useEmulator } from '@search-layer/testkit/vitest'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type Booted, TAVILY_ONLY, boot, upstreamCalls } from './_helpers.js'

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

describe('search concurrency (SEARCH_LAYER_MAX_CONCURRENT_SEARCHES)', () => {
  it('runs at most the limit of cache misses at once, in arrival order; a cached answer does not wait', async () => {
    const srv = await start({ envOverride: TAVILY_ONLY, maxConcurrentSearches: 1 })
    // Warm one query into the cache first.
    expect((await srv.call('/v1/search?q=langchain+release+notes&mode=fast')).status).toBe(200)
    emu.reset()
    // Long enough that the first call is still out while the checks below run on a busy host; each step waits for
    // the state it needs instead of sleeping and assuming it.
    emu.latency('tavily', 1000)
    const first = srv.call('/v1/search?q=first+langchain+miss&mode=fast')
    await vi.waitFor(() => expect(emu.count('tavily')).toBe(1), { timeout: 5_000, interval: 10 })
    const second = srv.call('/v1/search?q=second+langchain+miss&mode=fast')
    await vi.waitFor(
      async () => {
        const metrics = await (await srv.call('/metrics')).text()
        expect(metrics).toMatch(/search_layer_searches_running 1\b/)
        expect(metrics).toMatch(/search_layer_searches_waiting 1\b/)
      },
      { timeout: 5_000, interval: 10 },
    )
    // The only slot is taken and a miss waits, yet the cached query answers at once.
    const hit = await srv.call('/v1/search?q=langchain+release+notes&mode=fast')
    expect((await hit.json()).cached).toBe(true)
    expect(emu.requests.filter((r) => r.service === 'tavily')).toHaveLength(1)
    const [a, b] = await Promise.all([first, second])
    expect([a.status, b.status]).toEqual([200, 200])
    const calls = emu.requests.filter((r) => r.service === 'tavily').sort((x, y) => x.startedAt - y.startedAt)
    expect(calls).toHaveLength(2)
    // The second search's provider call starts only after the first one's finished.
    expect(calls[1]!.startedAt).toBeGreaterThanOrEqual(calls[0]!.endedAt!)
  })

  it('rejects a bad value naming the variable', async () => {
    const { serverOptionsFromEnv } = await import('../src/settings.js')
    expect(() => serverOptionsFromEnv({ SEARCH_LAYER_MAX_CONCURRENT_SEARCHES: '-3' })).toThrow(
      /SEARCH_LAYER_MAX_CONCURRENT_SEARCHES/,
    )
    expect(serverOptionsFromEnv({}).maxConcurrentSearches).toBe(32)
    expect(serverOptionsFromEnv({ SEARCH_LAYER_MAX_CONCURRENT_SEARCHES: '0' }).maxConcurrentSearches).toBe(0)
  })
})

describe('search routes', () => {
  it('POST /v1/search returns the engine response and echoes the request id', async () => {
    const srv = await start()
    const res = await srv.call('/v1/search', {
      json: { query: 'rust async runtime tokio', mode: 'deep', intent: 'exploratory', maxQueries: 1 },
      headers: { 'x-request-id': 'req-123' },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-request-id')).toBe('req-123')
    const body = await res.json()
    expect(body).toMatchObject({
      query: 'rust async runtime tokio',
      mode: 'deep',
      intent: 'exploratory',
      cached: false,
    })
    expect(body.results.length).toBeGreaterThan(0)
    expect(body.providers.brave.status).toBe('ok')
    expect(upstreamCalls(emu)).toBe(4)
    const line = srv.logs.lines().find((l) => l.msg === 'request' && l.reqId === 'req-123')
    expect(line).toMatchObject({ method: 'POST', path: '/v1/search', status: 200, who: 'anonymous' })
  })

  it('GET /v1/search takes q, mode, num and sources as query parameters', async () => {
    const srv = await start()
    const res = await srv.call('/v1/search?q=postgres%20vacuum&mode=fast&num=3&sources=brave')
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.mode).toBe('fast')
    expect(body.providers.brave).toMatchObject({ status: 'ok' })
    expect(body.providers.exa.status).toBe('skipped')
    expect(emu.requests.filter((r) => r.service === 'brave').every((r) => r.query.count === '3')).toBe(true)
  })

  it('a repeated search is a cache hit with no upstream calls', async () => {
    const srv = await start()
    const request = { query: 'kubernetes operator', mode: 'fast' }
    await (await srv.call('/v1/search', { json: request })).json()
    const before = upstreamCalls(emu)
    const second = await (await srv.call('/v1/search', { json: request })).json()
    expect(second.cached).toBe(true)
    expect(upstreamCalls(emu)).toBe(before)
  })

  it('answers 503 with a clear message when no provider is configured', async () => {
    const srv = await start({ envOverride: { ...TAVILY_ONLY, TAVILY_API_KEY: undefined } })
    const res = await srv.call('/v1/search', { json: { query: 'anything' } })
    expect(res.status).toBe(503)
    const body = await res.json()
    expect(body.code).toBe('not_configured')
    expect(body.error).toMatch(/TAVILY_API_KEY/)
  })
})

describe('with zero keys and keyless sources on', () => {
  it('answers from DuckDuckGo, and the JSON says which variables to set for more', async () => {
    const srv = await start({
      envOverride: { ...TAVILY_ONLY, TAVILY_API_KEY: undefined, SEARCH_LAYER_KEYLESS: 'on', SEARXNG_URL: undefined },
    })
    const res = await srv.call('/v1/search', { json: { query: 'kubernetes operator', mode: 'deep' } })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.results.length).toBeGreaterThan(0)
    expect(body.keyless_only).toEqual({
      sources: ['duckduckgo'],
      set: ['BRAVE_API_KEY', 'EXA_API_KEY', 'TAVILY_API_KEY', 'XAI_API_KEY'],
      message:
        'only keyless sources were used (duckduckgo); set BRAVE_API_KEY, EXA_API_KEY, TAVILY_API_KEY or XAI_API_KEY for more',
    })
  })
})

describe('validation and errors', () => {
  it.each([
    ['no query', { mode: 'fast' }, 'query'],
    ['num out of range', { query: 'x', num: 99 }, 'num'],
    ['unknown field', { query: 'x', colour: 'red' }, ''],
    ['bad mode', { query: 'x', mode: 'slow' }, 'mode'],
    ['query longer than maxQueryChars', { query: 'a'.repeat(501) }, 'query'],
  ])('POST /v1/search with %s is 400 with {path, message} issues', async (_name, body, path) => {
    const srv = await start()
    const res = await srv.call('/v1/search', { json: body })
    expect(res.status).toBe(400)
    const json = await res.json()
    expect(json.code).toBe('invalid_input')
    expect(json.issues.length).toBeGreaterThan(0)
    for (const issue of json.issues) expect(issue).toEqual({ path: expect.any(String), message: expect.any(String) })
    if (path) expect(json.issues.map((i: { path: string }) => i.path)).toContain(path)
    expect(JSON.stringify(json)).not.toMatch(/at .*\.ts:\d+/)
    expect(upstreamCalls(emu)).toBe(0)
  })

  it('GET /v1/search without q is 400', async () => {
    const srv = await start()
    const res = await srv.call('/v1/search?mode=fast')
    expect(res.status).toBe(400)
    expect((await res.json()).issues[0]).toEqual({ path: 'q', message: 'required, expected string' })
  })

  it('malformed JSON is 400, not 500', async () => {
    const srv = await start()
    const res = await srv.call('/v1/search', {
      method: 'POST',
      body: '{"query": ',
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(400)
    expect((await res.json()).code).toBe('invalid_input')
  })

  it('a body over the limit is 413', async () => {
    const srv = await start({ bodyLimitBytes: 1024 })
    const res = await srv.call('/v1/search', {
      json: { query: 'x', domainBoost: Array.from({ length: 50 }, (_, i) => `domain-number-${i}.example.com`) },
    })
    expect(res.status).toBe(413)
    expect((await res.json()).code).toBe('body_too_large')
  })

  it('unknown routes are 404 JSON', async () => {
    const srv = await start()
    const res = await srv.call('/v2/nothing-here')
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toMatch(/application\/json/)
    expect(await res.json()).toMatchObject({ code: 'not_found', error: 'No route for GET /v2/nothing-here' })
  })

  it('a request running past requestTimeoutMs is 504 and its upstream calls are cancelled', async () => {
    const srv = await start({ requestTimeoutMs: 300 })
    emu.latency('brave', 5000)
    emu.latency('exa', 5000)
    const started = Date.now()
    const res = await srv.call('/v1/search', { json: { query: 'slow upstream', mode: 'fast', deadlineMs: 10_000 } })
    expect(res.status).toBe(504)
    expect((await res.json()).code).toBe('timeout')
    expect(Date.now() - started).toBeLessThan(3000)
  })
})

describe('auth', () => {
  const keys = 'alice:sk-alice-0123456789abcdef,tvly-bob-secret-0123456789'

  it.each([
    ['no header', undefined, 401],
    ['a wrong key', 'sk-wrong-0123456789abcdef', 401],
    ["alice's key", 'sk-alice-0123456789abcdef', 200],
    ["bob's unnamed key", 'tvly-bob-secret-0123456789', 200],
  ])('with %s /api/tools answers %s', async (_name, key, status) => {
    const srv = await start({
      apiKeys: keys
        .split(',')
        .map((entry) =>
          entry.includes(':')
            ? { name: entry.split(':')[0]!, key: entry.split(':')[1]! }
            : { name: 'key-bob', key: entry },
        ),
    })
    const res = await srv.call('/api/tools', { ...(key && { key }) })
    expect(res.status).toBe(status)
    if (status === 401) {
      expect(res.headers.get('www-authenticate')).toMatch(/Bearer/)
      expect((await res.json()).code).toBe('unauthorized')
    }
  })

  it('health routes need no key; identity (not the key) is logged and used for history', async () => {
    const srv = await start({ apiKeys: [{ name: 'alice', key: 'sk-alice-0123456789abcdef' }] })
    expect((await srv.call('/healthz')).status).toBe(200)
    expect((await srv.call('/readyz')).status).toBe(200)
    expect((await srv.call('/metrics')).status).toBe(401)
    const res = await srv.call('/v1/search', {
      json: { query: 'react server components', mode: 'fast' },
      key: 'sk-alice-0123456789abcdef',
    })
    expect(res.status).toBe(200)
    const history = await (await srv.call('/v1/history', { key: 'sk-alice-0123456789abcdef' })).json()
    expect(history.entries[0]).toMatchObject({ query: 'react server components', who: 'alice' })
    // A wrong key must not leak into the log either.
    await srv.call('/v1/history', { key: 'sk-mallory-0123456789abcdef' })
    const log = srv.logs.text()
    expect(log).toContain('"who":"alice"')
    expect(log).not.toContain('sk-alice-0123456789abcdef')
    expect(log).not.toContain('sk-mallory-0123456789abcdef')
    expect(log).not.toContain(emu.keys.tavily)
    expect(log).not.toContain(emu.keys.brave)
  })

  it('provider keys never reach responses or logs, even when a provider rejects them', async () => {
    emu.fault('tavily', { status: 401 })
    const srv = await start({ envOverride: TAVILY_ONLY })
    const res = await srv.call('/v1/search', { json: { query: 'bun runtime', mode: 'deep' } })
    const text = await res.text()
    expect(text).not.toContain(emu.keys.tavily)
    expect(srv.logs.text()).not.toContain(emu.keys.tavily)
  })
})

describe('rate limiting', () => {
  it('answers 429 with Retry-After after the per-client limit', async () => {
    const srv = await start({ clientRateLimit: 2, clientRateWindowMs: 30_000 })
    expect((await srv.call('/api/tools')).status).toBe(200)
    const second = await srv.call('/api/tools')
    expect(second.headers.get('ratelimit-remaining')).toBe('0')
    const third = await srv.call('/api/tools')
    expect(third.status).toBe(429)
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(Number(third.headers.get('retry-after'))).toBeLessThanOrEqual(30)
    expect((await third.json()).code).toBe('rate_limited')
    // Health checks are never limited.
    expect((await srv.call('/healthz')).status).toBe(200)
  })

  it('counts each API key separately', async () => {
    const apiKeys = [
      { name: 'a', key: 'key-a-0123456789' },
      { name: 'b', key: 'key-b-0123456789' },
    ]
    const srv = await start({ apiKeys, clientRateLimit: 1 })
    expect((await srv.call('/api/tools', { key: 'key-a-0123456789' })).status).toBe(200)
    expect((await srv.call('/api/tools', { key: 'key-a-0123456789' })).status).toBe(429)
    expect((await srv.call('/api/tools', { key: 'key-b-0123456789' })).status).toBe(200)
  })

  it('counts key guesses by address, so brute force is limited too', async () => {
    const srv = await start({ apiKeys: [{ name: 'a', key: 'key-a-0123456789' }], clientRateLimit: 2 })
    expect((await srv.call('/api/tools', { key: 'guess-0000000001' })).status).toBe(401)
    expect((await srv.call('/api/tools', { key: 'guess-0000000002' })).status).toBe(401)
    expect((await srv.call('/api/tools', { key: 'guess-0000000003' })).status).toBe(429)
    // The real key has its own budget.
    expect((await srv.call('/api/tools', { key: 'key-a-0123456789' })).status).toBe(200)
  })
})

describe('agent tools', () => {
  it('GET /api/tools lists web_search with a JSON Schema for its arguments', async () => {
    const srv = await start()
    const { tools } = await (await srv.call('/api/tools')).json()
    expect(tools.map((t: { name: string }) => t.name)).toEqual([
      'web_search',
      'web_fetch',
      'fetch_thread',
      'extract_refs',
    ])
    const webSearch = tools.find((t: { name: string }) => t.name === 'web_search')
    expect(webSearch.description).toMatch(/^Search the web/)
    expect(webSearch.description).toContain('Live engines: brave, exa, tavily, grok.')
    expect(webSearch.parameters).toMatchObject({
      type: 'object',
      properties: { query: { type: 'string' }, max_results: { type: 'integer', default: 5, maximum: 10 } },
      additionalProperties: false,
    })
  })

  it('GET /api/tools advertises only the configured engines in web_search', async () => {
    const srv = await start({ envOverride: TAVILY_ONLY })
    const { tools } = await (await srv.call('/api/tools')).json()
    const webSearch = tools.find((t: { name: string }) => t.name === 'web_search')
    expect(webSearch.description).toContain('Live engines: tavily.')
    expect(webSearch.parameters.properties.sources.items.enum).toEqual(['tavily'])
  })

  it('web_search lists number, title, URL, snippet and relevance per result', async () => {
    const srv = await start()
    const res = await srv.call('/api/tools/web_search', { json: { query: 'rust async runtime tokio' } })
    expect(res.status).toBe(200)
    const { content, data, isError } = await res.json()
    expect(isError).toBe(false)
    expect(data.results).toHaveLength(5)
    data.results.forEach((r: { title: string; url: string; snippet: string; score: number }, i: number) => {
      expect(content).toContain(`[${i + 1}] ${r.title}\n    ${r.url}\n`)
      expect(content).toContain(r.snippet.slice(0, 40))
      expect(content).toMatch(new RegExp(`\\[${i + 1}\\][^[]*relevance ${r.score.toFixed(2)}`))
    })
  })

  it.each([
    [1, 1],
    [7, 7],
    [50, 10],
  ])('web_search with max_results %i returns %i results', async (asked, got) => {
    const srv = await start()
    const { data } = await (
      await srv.call('/api/tools/web_search', { json: { query: 'kubernetes operator pattern', max_results: asked } })
    ).json()
    expect(data.results).toHaveLength(got)
  })

  // One sentence per error kind, naming the engine (the original brief's timeout, invalid key, rate limit, quota).
  const FRIENDLY = {
    auth: /^The search failed: every engine it tried failed\. Tavily rejected its API key \(invalid, expired or revoked\): check TAVILY_API_KEY\.$/,
    rate_limited:
      /^The search failed: every engine it tried failed\. Tavily is rate-limiting requests \(too many in a short time\)\./,
    quota: /^The search failed: every engine it tried failed\. Tavily's quota or credits are used up for this period/,
    timeout: /^The search failed: every engine it tried failed\. Tavily did not answer in time \(timeout\)\./,
  } as const

  it.each([
    ['invalid key (401)', { status: 401 }, 'auth'],
    ['rate limit (429)', { status: 429, retryAfterSec: 1 }, 'rate_limited'],
    ['quota exhausted (432)', { status: 432 }, 'quota'],
    ['quota exhausted (433)', { status: 433 }, 'quota'],
    ['timeout', { hang: true }, 'timeout'],
  ] as const)('web_search turns %s into a friendly sentence', async (_name, fault, kind) => {
    emu.fault('tavily', fault)
    const srv = await start({ envOverride: TAVILY_ONLY, providerTimeoutMs: 300 })
    const res = await srv.call('/api/tools/web_search', { json: { query: 'latest langchain version' } })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toMatchObject({ isError: true, data: { error: { kind, message: body.content } } })
    expect(body.content).toMatch(FRIENDLY[kind])
    expect(JSON.stringify(body)).not.toContain(emu.keys.tavily)
  })

  it('web_search explains Tavily resting after repeated failures instead of "no results"', async () => {
    emu.fault('tavily', { status: 401 })
    const srv = await start({ envOverride: TAVILY_ONLY })
    const bodies = []
    // The engine's circuit opens after three failures; the fourth search skips Tavily without calling it.
    for (const q of ['one langchain', 'two langchain', 'three langchain', 'four langchain'])
      bodies.push(await (await srv.call('/api/tools/web_search', { json: { query: q } })).json())
    expect(bodies[3]).toMatchObject({ isError: true, data: { error: { kind: 'auth' } } })
    expect(bodies[3]!.content).toMatch(/resting after repeated failures\. Tavily rejected its API key/)
  })

  it('web_search answers before the request timeout with what arrived, not a 504', async () => {
    const srv = await start({ requestTimeoutMs: 1500 })
    // The tool's search stops 500 ms before the request timeout. A first search in a test worker also transforms
    // the modules the server imports lazily (scoring, synthesis): ~550 ms past the deadline in a probe on a loaded
    // host, against ~20 ms for the next search. A running server has them loaded, so this one warms up first.
    expect((await srv.call('/api/tools/web_search', { json: { query: 'warm up golang generics' } })).status).toBe(200)
    emu.latency('exa', 10_000)
    emu.latency('tavily', 10_000)
    emu.latency('grok', 10_000)
    const started = Date.now()
    const res = await srv.call('/api/tools/web_search', { json: { query: 'rust async runtime tokio' } })
    // A 200 is the proof it answered before the request timeout (past it the server sends a 504); the bound only
    // tells it from waiting for the slow engines, and is not the timeout itself, which a starved host overshoots.
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(body.isError).toBe(false)
    expect(body.data).toMatchObject({ partial: true, providers: { brave: { status: 'ok' } } })
  })

  it('web_search says so when no provider is configured', async () => {
    const srv = await start({ envOverride: { ...TAVILY_ONLY, TAVILY_API_KEY: undefined } })
    const body = await (await srv.call('/api/tools/web_search', { json: { query: 'x' } })).json()
    expect(body).toMatchObject({ isError: true, data: { error: { kind: 'config' } } })
    expect(body.content).toMatch(
      /^Web search is not available: no search provider is configured: set at least one of .*TAVILY_API_KEY/,
    )
  })

  it.each([
    ['missing query', {}, 'query'],
    ['empty query', { query: '  ' }, 'query'],
    ['max_results 0', { query: 'x', max_results: 0 }, 'max_results'],
    ['max_results not a number', { query: 'x', max_results: 'five' }, 'max_results'],
    ['an unknown argument', { query: 'x', colour: 'red' }, '(root)'],
    ['a query longer than maxQueryChars', { query: 'x'.repeat(501) }, 'query'],
  ])('web_search with %s is 400 naming the argument', async (_name, args, path) => {
    const srv = await start()
    const res = await srv.call('/api/tools/web_search', { json: args })
    expect(res.status).toBe(400)
    expect((await res.json()).issues.map((i: { path: string }) => i.path)).toContain(path)
  })

  it('web_search honours a maxQueryChars below the tool schema cap with 400', async () => {
    const srv = await start({ maxQueryChars: 20 })
    const res = await srv.call('/api/tools/web_search', { json: { query: 'a query of more than twenty characters' } })
    expect(res.status).toBe(400)
    expect((await res.json()).issues).toEqual([{ path: 'query', message: 'must be at most 20 characters' }])
    expect(upstreamCalls(emu)).toBe(0)
  })

  it('an unknown tool is 404', async () => {
    const srv = await start()
    const res = await srv.call('/api/tools/web_teleport', { json: {} })
    expect(res.status).toBe(404)
    expect((await res.json()).error).toMatch(/web_search/)
  })
})

describe('history', () => {
  it('records searches newest first, per client, in a JSONL file without Redis; DELETE forgets them', async () => {
    const srv = await start()
    await srv.call('/v1/search', { json: { query: 'bun vs deno', mode: 'fast' } })
    await srv.call('/api/tools/web_search', { json: { query: 'what is webtransport' } })
    const { entries } = await (await srv.call('/v1/history')).json()
    expect(entries.map((e: { query: string }) => e.query)).toEqual(['what is webtransport', 'bun vs deno'])
    expect(entries[0]).toMatchObject({
      who: 'anonymous',
      cached: false,
      count: expect.any(Number),
      mode: expect.any(String),
    })
    expect(new Date(entries[0].when).getTime()).toBeGreaterThan(Date.now() - 60_000)
    const file = join(srv.dataDir, 'history.jsonl')
    expect(existsSync(file)).toBe(true)
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2)
    const limited = await (await srv.call('/v1/history?limit=1')).json()
    expect(limited.entries).toHaveLength(1)
    expect(await (await srv.call('/v1/history', { method: 'DELETE' })).json()).toEqual({ deleted: 2 })
    expect((await (await srv.call('/v1/history')).json()).entries).toEqual([])
  })

  it('keeps at most historyMax entries per client', async () => {
    const srv = await start({ historyMax: 2 })
    for (const q of ['one query', 'two query', 'three query'])
      await srv.call('/v1/search', { json: { query: q, mode: 'fast' } })
    const { entries } = await (await srv.call('/v1/history?limit=10')).json()
    expect(entries.map((e: { query: string }) => e.query)).toEqual(['three query', 'two query'])
  })
})

describe('health, readiness, metrics and OpenAPI', () => {
  it('/readyz reports providers and 503 when none is configured', async () => {
    const ok = await start()
    const ready = await (await ok.call('/readyz')).json()
    expect(ready).toMatchObject({ status: 'ready', redis: { configured: false, up: false }, warnings: [] })
    const engines = ready.providers.filter((p: { name: string }) => ['brave', 'exa', 'tavily', 'grok'].includes(p.name))
    expect(engines.map((p: { configured: boolean }) => p.configured)).toEqual([true, true, true, true])
    // Before any call is timed, what a search goes by: each definition's typical latency (Grok's web search ~8 s).
    expect(engines.map((p: { typicalLatencyMs: number }) => p.typicalLatencyMs)).toEqual([450, 1100, 1500, 8000])
    expect(engines.every((p: { latency?: unknown }) => p.latency === undefined)).toBe(true)
    const none = await start({ envOverride: { ...TAVILY_ONLY, TAVILY_API_KEY: undefined } })
    const res = await none.call('/readyz')
    expect(res.status).toBe(503)
    expect((await res.json()).status).toBe('not_ready')
  })

  it('/metrics counts requests, latencies, provider calls by outcome, cache hits and budget use', async () => {
    const srv = await start({ monthlyBudgets: { brave: 100 } })
    emu.fault('exa', { status: 500, times: 5 })
    await srv.call('/v1/search', { json: { query: 'postgres vacuum', mode: 'fast' } })
    await srv.call('/v1/search', { json: { query: 'postgres vacuum', mode: 'fast' } })
    await srv.call('/nope')
    const res = await srv.call('/metrics')
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0.0.4/)
    const text = await res.text()
    expect(text).toContain('search_layer_http_requests_total{route="/v1/search",method="POST",status="200"} 2')
    expect(text).toContain('search_layer_http_requests_total{route="(unmatched)",method="GET",status="404"} 1')
    expect(text).toMatch(/search_layer_http_request_duration_seconds_bucket\{route="\/v1\/search",le="\+Inf"\} 2/)
    expect(text).toMatch(/search_layer_provider_calls_total\{provider="brave",outcome="ok"\} [1-9]/)
    expect(text).toMatch(/search_layer_provider_calls_total\{provider="exa",outcome="upstream"\} [1-9]/)
    expect(text).toContain('search_layer_cache_requests_total{result="miss"} 1')
    expect(text).toContain('search_layer_cache_requests_total{result="hit"} 1')
    expect(text).toMatch(/search_layer_budget_used_calls\{provider="brave",month="\d{4}-\d{2}"\} [1-9]/)
    expect(text).toMatch(/search_layer_budget_limit_calls\{provider="brave",month="\d{4}-\d{2}"\} 100/)
    expect(text).toContain('search_layer_redis_up 0')
  })

  it('/openapi.json documents every route from the zod schemas', async () => {
    const srv = await start()
    const doc = await (await srv.call('/openapi.json')).json()
    expect(doc.openapi).toBe('3.1.0')
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/api/tools',
      '/api/tools/{name}',
      '/healthz',
      '/metrics',
      '/readyz',
      '/v1/ask',
      '/v1/conversations',
      '/v1/conversations/{id}',
      '/v1/fetch',
      '/v1/history',
      '/v1/refs',
      '/v1/search',
      '/v1/thread',
      '/v1/tool-calls',
    ])
    expect(Object.keys(doc.paths['/v1/search'])).toEqual(['post', 'get'])
    expect(Object.keys(doc.paths['/v1/ask'])).toEqual(['post'])
    expect(doc.paths['/v1/search'].post.requestBody.content['application/json'].schema.properties.query).toMatchObject({
      type: 'string',
      maxLength: 500, // SEARCH_LAYER_MAX_QUERY_CHARS default: the limit the server enforces
    })
    expect(doc.components.schemas.SearchResponse).toBeDefined()
    expect(doc.paths['/v1/search'].get.responses['200'].content['text/event-stream']).toBeDefined()
    expect(doc.info.description).toMatch(
      /MCP \(Streamable HTTP, stateless, POST\) at \/mcp, behind the same bearer auth/,
    )
  })
})

// A request is in flight once the server has asked Brave; a fixed sleep could end before a loaded host had even
// accepted the connection, and the shutdown would then refuse it.
const untilBraveAsked = () => vi.waitFor(() => expect(emu.count('brave')).toBeGreaterThan(0), { timeout: 10_000 })

describe('graceful shutdown', () => {
  it('SIGTERM drains in-flight requests and stops the server', async () => {
    const listeners = process.listenerCount('SIGTERM')
    const srv = await boot(emu, { handleSignals: true })
    expect(process.listenerCount('SIGTERM')).toBe(listeners + 1)
    emu.latency('brave', 300)
    const inFlight = srv.call('/v1/search', { json: { query: 'sigterm drain test', mode: 'fast', sources: ['brave'] } })
    await untilBraveAsked()
    process.emit('SIGTERM', 'SIGTERM')
    expect((await inFlight).status).toBe(200)
    await srv.close() // the same shutdown, already under way
    await expect(fetch(`${srv.url}/healthz`)).rejects.toThrow()
    expect(srv.logs.lines().some((l) => l.msg === 'shutting down' && l.signal === 'SIGTERM')).toBe(true)
    expect(process.listenerCount('SIGTERM')).toBe(listeners)
  })

  it('finishes in-flight requests, then stops accepting', async () => {
    const srv = await boot(emu)
    emu.latency('brave', 400)
    const inFlight = srv.call('/v1/search', {
      json: { query: 'graceful shutdown test', mode: 'fast', sources: ['brave'] },
    })
    await untilBraveAsked()
    const closed = srv.close()
    const res = await inFlight
    expect(res.status).toBe(200)
    expect((await res.json()).results.length).toBeGreaterThan(0)
    await closed
    await expect(fetch(`${srv.url}/healthz`)).rejects.toThrow()
  })

  it('cuts requests that outlive shutdownTimeoutMs', async () => {
    const srv = await boot(emu, { shutdownTimeoutMs: 200 })
    emu.latency('brave', 10_000)
    const inFlight = srv
      .call('/v1/search', { json: { query: 'too slow to finish', mode: 'fast', sources: ['brave'] } })
      .then(
        (r) => r.status,
        () => 'cut',
      )
    await untilBraveAsked()
    const started = Date.now()
    await srv.close()
    // Halfway to the reply a close that waited for the request would have had.
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(await inFlight).toBe('cut')
  })
})

describe('documentation', () => {
  it('the README documents every setting', async () => {
    const { SERVER_SETTINGS } = await import('../src/index.js')
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
    for (const s of SERVER_SETTINGS) {
      expect(readme).toContain(`\`${s.env}\``)
      if (s.flag) expect(readme).toContain(`\`${s.flag}\``)
    }
  })
})
