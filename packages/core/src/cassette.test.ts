import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  REPLAY_PLACEHOLDER_KEY,
  cassetteFileName,
  checkCassetteConfig,
  hasCassettesFor,
  keptHeaders,
  normaliseCassetteRequest,
  resolveCassetteConfig,
  scrubValues,
} from './cassette.js'
import { defineProvider } from './define-provider.js'
import { ConfigError, ProviderError } from './errors.js'
import { readRateLimitHeaders } from './rate-limit-headers.js'
import { requestJson, requestText } from './http.js'

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void
let server: Server
let base: string
let handler: Handler
let hits: string[]

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => {
      body += c
    })
    req.on('end', () => {
      hits.push(req.url ?? '')
      handler(req, res, body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})
beforeEach(() => {
  hits = []
})

const freshDir = () => mkdtempSync(join(tmpdir(), 'sl-cassettes-'))
const cassettesIn = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.json'))
const rejection = async (promise: Promise<unknown>): Promise<ProviderError> => {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError)
    return error as ProviderError
  }
  throw new Error('expected a rejection')
}

describe('resolveCassetteConfig', () => {
  it.each([
    [{}, undefined],
    [{ SEARCH_LAYER_RECORD: '  ' }, undefined],
    [{ SEARCH_LAYER_RECORD: '/tmp/tapes' }, { mode: 'record', dir: '/tmp/tapes', variable: 'SEARCH_LAYER_RECORD' }],
    [{ SEARCH_LAYER_REPLAY: '/tmp/tapes' }, { mode: 'replay', dir: '/tmp/tapes', variable: 'SEARCH_LAYER_REPLAY' }],
  ])('%j → %j', (env, expected) => {
    expect(resolveCassetteConfig(env)).toEqual(expected)
  })

  it('resolves a relative directory against the working directory', () => {
    expect(resolveCassetteConfig({ SEARCH_LAYER_REPLAY: 'test/tapes' })?.dir).toBe(join(process.cwd(), 'test/tapes'))
  })

  it('refuses both variables at once, naming both', () => {
    expect(() => resolveCassetteConfig({ SEARCH_LAYER_RECORD: 'a', SEARCH_LAYER_REPLAY: 'b' })).toThrow(ConfigError)
    expect(() => resolveCassetteConfig({ SEARCH_LAYER_RECORD: 'a', SEARCH_LAYER_REPLAY: 'b' })).toThrow(
      /SEARCH_LAYER_RECORD and SEARCH_LAYER_REPLAY are both set/,
    )
  })
})

describe('checkCassetteConfig', () => {
  it('refuses a replay directory that is missing or holds no cassettes, and says how to record them', () => {
    const empty = freshDir()
    writeFileSync(join(empty, 'notes.json'), '{}')
    for (const dir of [join(empty, 'missing'), empty]) {
      expect(() => checkCassetteConfig({ SEARCH_LAYER_REPLAY: dir })).toThrow(ConfigError)
      expect(() => checkCassetteConfig({ SEARCH_LAYER_REPLAY: dir })).toThrow(`SEARCH_LAYER_RECORD=${dir}`)
    }
  })

  it('accepts a replay directory with a cassette, and any record directory (it is created on first write)', () => {
    const dir = freshDir()
    writeFileSync(join(dir, 'brave-0123456789ab.json'), '{}')
    expect(checkCassetteConfig({ SEARCH_LAYER_REPLAY: dir })?.mode).toBe('replay')
    expect(checkCassetteConfig({ SEARCH_LAYER_RECORD: join(dir, 'new') })?.mode).toBe('record')
    expect(checkCassetteConfig({})).toBeUndefined()
  })
})

describe('hasCassettesFor', () => {
  it("matches a provider's own files only, not those of a provider whose id extends it", () => {
    const dir = freshDir()
    writeFileSync(join(dir, 'brave-news-0123456789ab.json'), '{}')
    expect(hasCassettesFor(dir, 'brave')).toBe(false)
    expect(hasCassettesFor(dir, 'brave-news')).toBe(true)
    writeFileSync(join(dir, 'brave-0123456789ab.json'), '{}')
    expect(hasCassettesFor(dir, 'brave')).toBe(true)
    expect(hasCassettesFor(join(dir, 'missing'), 'brave')).toBe(false)
  })
})

describe('normaliseCassetteRequest', () => {
  it('drops secret query parameters and body fields, sorts the rest', () => {
    const normalised = normaliseCassetteRequest({
      method: 'post',
      url: 'https://user:pw@api.example.com/search?z=1&key=K1&a=2&api_key=K2&access_token=K3&token=K4&apikey=K5#frag',
      body: { query: 'q', api_key: 'tvly-secret', nested: { b: 1, a: [{ apiKey: 'x', keep: true }] } },
    })
    expect(normalised).toEqual({
      method: 'POST',
      url: 'https://api.example.com/search?a=2&z=1',
      body: { nested: { a: [{ keep: true }], b: 1 }, query: 'q' },
    })
  })

  it('keeps fields that only look like secrets (max_tokens, page_token cursors stay distinct)', () => {
    const a = normaliseCassetteRequest({
      method: 'POST',
      url: 'https://x.test/',
      body: { max_tokens: 5, page_token: 'a' },
    })
    expect(a.body).toEqual({ max_tokens: 5, page_token: 'a' })
  })

  it('scrubs a given key wherever it appears (a key in a URL path)', () => {
    const normalised = normaliseCassetteRequest({ method: 'GET', url: 'https://x.test/v1/SECRETVALUE1/search' }, [
      'SECRETVALUE1',
    ])
    expect(normalised.url).not.toContain('SECRETVALUE1')
  })

  it('removes the credentials of URLs in parameter values and the body, not only of the request URL', () => {
    const normalised = normaliseCassetteRequest({
      method: 'POST',
      url: 'https://api.example.com/search?q=https%3A%2F%2Fuser%3Apass%40host.example%2Fx&n=1',
      body: { query: 'see https://bob:hunter22@host.example/y', urls: ['ftp://anon:pw@files.example/f'] },
    })
    const text = JSON.stringify(normalised)
    expect(text).not.toMatch(/user|pass|bob|hunter22|anon|pw@/)
    expect(normalised).toEqual({
      method: 'POST',
      url: 'https://api.example.com/search?n=1&q=https%3A%2F%2Fhost.example%2Fx',
      body: { query: 'see https://host.example/y', urls: ['ftp://files.example/f'] },
    })
  })

  it('names the same file whatever the key, and a different file for a different query', () => {
    const name = (url: string, body?: unknown, secrets: string[] = []) =>
      cassetteFileName('tavily', normaliseCassetteRequest({ method: 'POST', url, body }, secrets))
    const recorded = name('https://api.tavily.com/search?b=1&a=2', { api_key: 'tvly-real', query: 'rust' })
    expect(recorded).toMatch(/^tavily-[0-9a-f]{12}\.json$/)
    expect(name('https://api.tavily.com/search?a=2&b=1', { query: 'rust', api_key: REPLAY_PLACEHOLDER_KEY })).toBe(
      recorded,
    )
    expect(name('https://api.tavily.com/search?a=2&b=1', { query: 'rust' })).toBe(recorded)
    expect(name('https://api.tavily.com/search?a=2&b=1', { query: 'go' })).not.toBe(recorded)
  })
})

describe('keptHeaders', () => {
  it('keeps content type, retry and rate-limit headers and request ids; never credentials or cookies', () => {
    expect(
      keptHeaders({
        'content-type': 'application/json',
        'retry-after': '2',
        'x-ratelimit-remaining': '9',
        'ratelimit-reset': '3',
        'x-request-id': 'r1',
        link: '<https://x.test/?page=2>; rel="next"',
        'set-cookie': 'session=abc',
        authorization: 'Bearer t',
        'x-api-key': 'k',
        'x-auth-token': 't',
        server: 'nginx',
        date: 'Fri, 20 Nov 2026 12:00:00 GMT',
      }),
    ).toEqual({
      'content-type': 'application/json',
      link: '<https://x.test/?page=2>; rel="next"',
      'ratelimit-reset': '3',
      'retry-after': '2',
      'x-ratelimit-remaining': '9',
      'x-request-id': 'r1',
    })
  })
})

describe('scrubValues', () => {
  it('replaces raw, JSON-escaped and URL-encoded forms; ignores values too short to be keys', () => {
    const text = JSON.stringify({ a: 'k"ey/value+1 here', b: 'k%22ey%2Fvalue%2B1', c: 'abc' })
    const out = scrubValues(text, ['k"ey/value+1', 'abc'])
    expect(out).not.toContain('ey/value')
    expect(out).not.toContain('ey%2Fvalue')
    expect(JSON.parse(out)).toEqual({ a: '[redacted] here', b: '[redacted]', c: 'abc' })
  })
})

describe('record and replay through requestJson', () => {
  const schema = z.object({ results: z.array(z.object({ title: z.string() })) })

  it('records a readable cassette without the key, then replays it with no connection', async () => {
    const dir = freshDir()
    handler = (_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-ratelimit-remaining': '41',
        'set-cookie': 'sid=leaky-cookie-value',
      })
      res.end(JSON.stringify({ results: [{ title: 'Tokio' }], echo: 'tvly-distinctive-key-0001' }))
    }
    const call = (env: Record<string, string>, key: string) =>
      requestJson({
        service: 'tavily',
        url: `${base}/search`,
        query: { q: 'rust async' },
        json: { api_key: key, query: 'rust async', max_results: 5 },
        headers: { authorization: `Bearer ${key}` },
        schema,
        env,
        secrets: [key],
      })
    const recorded = await call({ SEARCH_LAYER_RECORD: dir }, 'tvly-distinctive-key-0001')
    expect(recorded.data.results[0]!.title).toBe('Tokio')
    expect(hits).toHaveLength(1)

    const [file] = cassettesIn(dir)
    expect(file).toMatch(/^tavily-[0-9a-f]{12}\.json$/)
    const raw = readFileSync(join(dir, file!), 'utf8')
    expect(raw).not.toContain('tvly-distinctive-key-0001')
    expect(raw).not.toContain('leaky-cookie-value')
    expect(raw.split('\n').length).toBeGreaterThan(10)
    const cassette = JSON.parse(raw)
    expect(cassette).toMatchObject({
      provider: 'tavily',
      request: { method: 'POST', url: `${base}/search?q=rust+async`, body: { max_results: 5, query: 'rust async' } },
      response: {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-ratelimit-remaining': '41' },
        bodyType: 'json',
        body: { results: [{ title: 'Tokio' }], echo: '[redacted]' },
      },
    })
    expect(Date.parse(cassette.recordedAt)).not.toBeNaN()

    // Replayed with another key (or the placeholder), the same cassette answers and the server sees nothing.
    const replayed = await call({ SEARCH_LAYER_REPLAY: dir }, REPLAY_PLACEHOLDER_KEY)
    expect(hits).toHaveLength(1)
    expect(replayed).toMatchObject({ status: 200, attempts: 1, data: { results: [{ title: 'Tokio' }] } })
    expect(replayed.headers['x-ratelimit-remaining']).toBe('41')
  })

  // A failed live call is recorded, and its replay fails the same way without a connection.
  it.each([
    {
      name: 'an error response (429)',
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '7' },
      body: { error: 'slow down' },
      request: { service: 'brave', url: '/res/v1/web/search?q=x', retries: 0 },
      expected: { kind: 'rate_limited', retryAfterMs: 7000, status: 429 },
    },
    {
      name: 'a schema mismatch (bad_response)',
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { results: 'nope' },
      request: { service: 'exa', url: '/search', schema },
      expected: { kind: 'bad_response' },
    },
  ])(
    'replays $name through the same error mapping as the live call',
    async ({ status, headers, body, request, expected }) => {
      const dir = freshDir()
      handler = (_req, res) => {
        res.writeHead(status, headers)
        res.end(JSON.stringify(body))
      }
      const call = (env: Record<string, string>) => requestJson({ ...request, url: `${base}${request.url}`, env })
      const live = await rejection(call({ SEARCH_LAYER_RECORD: dir }))
      const replayed = await rejection(call({ SEARCH_LAYER_REPLAY: dir }))
      expect(hits).toHaveLength(1)
      expect(cassettesIn(dir)).toHaveLength(1)
      expect(replayed.toJSON()).toEqual(live.toJSON())
      expect(replayed).toMatchObject(expected)
    },
  )

  it.each([
    ['400 digits', '9'.repeat(400)],
    ['ten years', '315360000'],
    ['a date in 9999', 'Fri, 31 Dec 9999 23:59:59 GMT'],
    ['negative', '-30'],
  ])('replays a cassette whose Retry-After was tampered to %s as a 429 with no wait', async (_name, retryAfter) => {
    const dir = freshDir()
    handler = (_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' })
      res.end(JSON.stringify({ error: 'slow down' }))
    }
    const call = (env: Record<string, string>) =>
      requestJson({ service: 'brave', url: `${base}/res/v1/web/search?q=x`, retries: 0, env })
    await rejection(call({ SEARCH_LAYER_RECORD: dir }))
    const [file] = cassettesIn(dir)
    const cassette = JSON.parse(readFileSync(join(dir, file!), 'utf8'))
    cassette.response.headers['retry-after'] = retryAfter
    writeFileSync(join(dir, file!), JSON.stringify(cassette))
    let seen: Readonly<Record<string, string>> | undefined
    const replayed = await rejection(
      requestJson({
        service: 'brave',
        url: `${base}/res/v1/web/search?q=x`,
        retries: 0,
        env: { SEARCH_LAYER_REPLAY: dir },
        onResponse: ({ headers }) => {
          seen = headers
        },
      }),
    )
    expect(replayed).toMatchObject({ kind: 'rate_limited', status: 429 })
    expect(replayed.retryAfterMs).toBeUndefined()
    expect(replayed.message).not.toMatch(/retry after/)
    expect(readRateLimitHeaders(seen!, Date.now())?.retryAt).toBeUndefined()
  })

  it('records the attempt that answered, not one a retry replaced', async () => {
    const dir = freshDir()
    handler = (_req, res) => {
      if (hits.length === 1) {
        res.writeHead(503, { 'content-type': 'text/plain' })
        res.end('busy')
        return
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end('<html><body>ok</body></html>')
    }
    const call = (env: Record<string, string>) =>
      requestText({ service: 'duckduckgo', url: `${base}/html/?q=x`, retries: 1, backoffBaseMs: 1, env })
    const live = await call({ SEARCH_LAYER_RECORD: dir })
    expect(hits).toHaveLength(2)
    const cassette = JSON.parse(readFileSync(join(dir, cassettesIn(dir)[0]!), 'utf8'))
    expect(cassette.response).toMatchObject({ status: 200, bodyType: 'text', body: '<html><body>ok</body></html>' })
    expect((await call({ SEARCH_LAYER_REPLAY: dir })).text).toBe(live.text)
    expect(hits).toHaveLength(2)
  })

  it('a miss is a config error naming the provider, the cassette file and the directory', async () => {
    const dir = freshDir()
    const error = await rejection(
      requestJson({
        service: 'brave',
        url: `${base}/res/v1/web/search?q=never+recorded`,
        env: { SEARCH_LAYER_REPLAY: dir },
      }),
    )
    const expected = cassetteFileName(
      'brave',
      normaliseCassetteRequest({ method: 'GET', url: `${base}/res/v1/web/search?q=never+recorded` }),
    )
    expect(error).toMatchObject({ kind: 'config', provider: 'brave', code: 'cassette_missing', retryable: false })
    expect(error.message).toContain(expected)
    expect(error.message).toContain(dir)
    expect(error.message).toContain('SEARCH_LAYER_RECORD')
    expect(hits).toHaveLength(0)
  })

  it('a file that is not a cassette is a config error naming it', async () => {
    const dir = freshDir()
    const url = `${base}/search?q=broken`
    const name = cassetteFileName('exa', normaliseCassetteRequest({ method: 'GET', url }))
    writeFileSync(join(dir, name), JSON.stringify({ provider: 'exa' }))
    const error = await rejection(requestJson({ service: 'exa', url, env: { SEARCH_LAYER_REPLAY: dir } }))
    expect(error).toMatchObject({ kind: 'config', code: 'cassette_invalid' })
    expect(error.message).toContain(name)
  })

  it.runIf(process.platform !== 'win32')(
    'a cassette that is a pipe is refused at once, not read for ever',
    async () => {
      const dir = freshDir()
      const url = `${base}/search?q=pipe`
      const name = cassetteFileName('exa', normaliseCassetteRequest({ method: 'GET', url }))
      execFileSync('mkfifo', [join(dir, name)])
      const error = await rejection(requestJson({ service: 'exa', url, env: { SEARCH_LAYER_REPLAY: dir } }))
      expect(error).toMatchObject({ kind: 'config', code: 'cassette_invalid' })
      expect(error.message).toContain(`${name}: not a regular file`)
    },
  )

  it('both variables set fail the call as a config error, before any connection', async () => {
    const error = await rejection(
      requestJson({
        service: 'exa',
        url: `${base}/search`,
        env: { SEARCH_LAYER_RECORD: 'a', SEARCH_LAYER_REPLAY: 'b' },
      }),
    )
    expect(error.kind).toBe('config')
    expect(error.message).toMatch(/both set/)
    expect(hits).toHaveLength(0)
  })

  it('keeps every key variable value out of the cassette, even when the upstream echoes them', async () => {
    const dir = freshDir()
    const env: Record<string, string> = { SEARCH_LAYER_RECORD: dir }
    // The built-in providers' variables, the LLM's, and names a plug-in might use: scrubbed by name, not by a list.
    const names = ['BRAVE_API_KEY', 'EXA_API_KEY', 'TAVILY_API_KEY', 'XAI_API_KEY', 'GROK_API_KEY', 'GITHUB_TOKEN']
    names.push('GH_TOKEN', 'SEARCH_LAYER_LLM_KEY', 'BOCHA_API_KEY', 'STACKEXCHANGE_KEY', 'MY_PLUGIN_SECRET')
    for (const name of names) env[name] = `${name.toLowerCase()}-distinct-value`
    const values = Object.entries(env)
      .filter(([name]) => name !== 'SEARCH_LAYER_RECORD')
      .map(([, value]) => value)
    handler = (req, res, body) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ echoed: [req.url, body, ...values] }))
    }
    await requestJson({
      service: 'github',
      url: `${base}/search/${env.GITHUB_TOKEN}`,
      query: { q: env.EXA_API_KEY!, page: 2 },
      json: { note: `key ${env.BRAVE_API_KEY}` },
      env,
    })
    const raw = readFileSync(join(dir, cassettesIn(dir)[0]!), 'utf8')
    for (const value of values) expect(raw).not.toContain(value)
  })
})

describe('replay without a key', () => {
  const provider = defineProvider({
    definition: {
      id: 'exa',
      env: { apiKey: ['EXA_API_KEY'], baseUrl: 'EXA_API_URL' },
      defaultBaseUrl: 'https://api.exa.ai',
    },
    async run({ apiKey, service, request, http }) {
      const res = await requestJson<{ title: string }>({
        ...http,
        service: 'exa',
        url: `${service.baseUrl}/search`,
        headers: { 'x-api-key': apiKey },
        json: { query: request.query },
      })
      return {
        results: [
          {
            title: res.data.title,
            url: 'https://example.com/',
            snippet: '',
            publishedAt: null,
            provider: 'exa',
            rank: 1,
          },
        ],
      }
    },
  })

  it('counts a provider as configured only when the replay directory holds its cassettes', async () => {
    const dir = freshDir()
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ title: 'Recorded' }))
    }
    const home = freshDir()
    const replayEnv = { HOME: home, EXA_API_URL: base, SEARCH_LAYER_REPLAY: dir }
    expect(provider.isConfigured(replayEnv)).toBe(false)
    await provider.search(
      { query: 'rust' },
      { env: { HOME: home, EXA_API_URL: base, EXA_API_KEY: 'exa-real-key-123', SEARCH_LAYER_RECORD: dir } },
    )
    expect(provider.isConfigured(replayEnv)).toBe(true)
    expect(provider.isConfigured({ HOME: home, EXA_API_URL: base })).toBe(false)
    const res = await provider.search({ query: 'rust' }, { env: replayEnv })
    expect(res.results[0]!.title).toBe('Recorded')
    expect(hits).toHaveLength(1)
  })
})
