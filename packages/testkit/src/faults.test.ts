import { request } from 'node:http'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { vendorRequest } from './_test-helpers.js'
import { type EmulatedService, type Emulator, startEmulator } from './index.js'

let emu: Emulator
beforeEach(async () => {
  emu ??= await startEmulator()
  emu.reset()
})
afterAll(() => emu?.close())

const SEARCH = ['brave', 'exa', 'tavily', 'grok'] as const

describe("status faults answer in each vendor's real error format", () => {
  it.each([
    [
      'brave',
      429,
      'RATE_LIMITED',
      {
        type: 'ErrorResponse',
        error: { status: 429, code: 'RATE_LIMITED', detail: 'Request rate limit exceeded for plan.' },
      },
    ],
    [
      'brave',
      429,
      'QUOTA_LIMITED',
      {
        type: 'ErrorResponse',
        error: { status: 429, code: 'QUOTA_LIMITED', detail: 'Request quota limit exceeded for plan.' },
      },
    ],
    ['brave', 422, undefined, { type: 'ErrorResponse', error: { status: 422, code: 'SUBSCRIPTION_TOKEN_INVALID' } }],
    ['brave', 500, undefined, { type: 'ErrorResponse', error: { status: 500, code: 'INTERNAL_ERROR' } }],
    ['exa', 401, undefined, { tag: 'INVALID_API_KEY', error: 'Invalid API key' }],
    ['exa', 402, 'NO_MORE_CREDITS', { tag: 'NO_MORE_CREDITS' }],
    ['exa', 402, 'API_KEY_BUDGET_EXCEEDED', { tag: 'API_KEY_BUDGET_EXCEEDED' }],
    ['exa', 429, undefined, { tag: 'RATE_LIMIT_EXCEEDED' }],
    ['exa', 503, undefined, { tag: 'SERVICE_UNAVAILABLE' }],
    ['tavily', 401, undefined, { detail: { error: 'Unauthorized: missing or invalid API key.' } }],
    ['tavily', 429, undefined, { detail: { error: expect.stringContaining('excessive requests') } }],
    ['tavily', 432, undefined, { detail: { error: expect.stringContaining("exceeds your plan's set usage limit") } }],
    ['tavily', 433, undefined, { detail: { error: expect.stringContaining('pay-as-you-go limit') } }],
    ['tavily', 500, undefined, { detail: { error: 'Internal Server Error' } }],
    ['grok', 403, undefined, { code: 'The caller does not have permission to execute the specified operation' }],
    ['grok', 410, undefined, { error: expect.stringContaining('Live search is deprecated') }],
    ['grok', 429, undefined, { code: 'Some resource has been exhausted' }],
    ['grok', 502, undefined, { code: 'Internal error' }],
    [
      'github',
      401,
      undefined,
      { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' },
    ],
    ['github', 403, undefined, { message: expect.stringContaining('API rate limit exceeded'), status: '403' }],
    ['github', 429, undefined, { message: expect.stringContaining('secondary rate limit'), status: '429' }],
    ['github', 410, undefined, { message: 'This issue was deleted', status: '410' }],
    ['llm', 429, undefined, { error: { type: 'requests', code: 'rate_limit_exceeded' } }],
    ['llm', 500, undefined, { error: { type: 'server_error' } }],
  ] as const)('%s %i %s', async (service, status, code, body) => {
    emu.fault(service, { status, ...(code && { code }) })
    const res =
      service === 'github'
        ? await fetch(`${emu.urls.github}/repos/octo/demo/issues/1`)
        : service === 'llm'
          ? await fetch(`${emu.urls.llm}/chat/completions`, {
              method: 'POST',
              headers: { authorization: `Bearer ${emu.keys.llm}` },
              body: '{}',
            })
          : await vendorRequest(emu, service)
    expect(res.status).toBe(status)
    expect(res.headers.get('content-type')).toMatch(/application\/json/)
    expect(await res.json()).toMatchObject(body)
  })

  it('brave errors carry rate-limit headers; a quota error shows no remaining quota', async () => {
    emu.fault('brave', { status: 429, code: 'QUOTA_LIMITED' })
    const res = await vendorRequest(emu, 'brave')
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0, 0')
    expect(res.headers.get('x-ratelimit-limit')).toBe('1, 15000')
  })

  it('headers: set on the emulated answer over its own (a paid plan on Brave), the body unchanged', async () => {
    const plain = await (await vendorRequest(emu, 'brave')).json()
    emu.fault('brave', { headers: { 'x-ratelimit-limit': '20, 20000000', 'x-plan': 'paid' } })
    const res = await vendorRequest(emu, 'brave')
    expect(res.status).toBe(200)
    expect(res.headers.get('x-ratelimit-limit')).toBe('20, 20000000')
    expect(res.headers.get('x-plan')).toBe('paid')
    expect(res.headers.get('x-ratelimit-policy')).toBe('1;w=1, 15000;w=2592000')
    expect(await res.json()).toEqual(plain)
  })

  it('github rate-limit errors report zero remaining', async () => {
    emu.fault('github', { status: 403 })
    const res = await fetch(`${emu.urls.github}/repos/octo/demo/issues/1`)
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0')
  })

  it('pages answer an nginx HTML error page', async () => {
    emu.fault('pages', { status: 503 })
    const res = await fetch(`${emu.urls.pages}/article`)
    expect(res.status).toBe(503)
    expect(res.headers.get('content-type')).toMatch(/text\/html/)
    expect(await res.text()).toContain('503 Service Unavailable')
  })
})

describe('fault options', () => {
  it.each(SEARCH)('Retry-After on %s', async (service) => {
    emu.fault(service, { status: 429, retryAfterSec: 7 })
    const res = await vendorRequest(emu, service)
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('7')
  })

  it('times: applies to the next N requests, then clears itself', async () => {
    emu.fault('exa', { status: 500, times: 2 })
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await vendorRequest(emu, 'exa')).status)
    expect(statuses).toEqual([500, 500, 200, 200])
  })

  it('a fault stays until cleared when times is absent', async () => {
    emu.fault('tavily', { status: 432 })
    expect((await vendorRequest(emu, 'tavily')).status).toBe(432)
    expect((await vendorRequest(emu, 'tavily')).status).toBe(432)
    emu.fault('tavily', null)
    expect((await vendorRequest(emu, 'tavily')).status).toBe(200)
  })

  it('faults are per service', async () => {
    emu.fault('brave', { status: 500 })
    expect((await vendorRequest(emu, 'exa')).status).toBe(200)
    expect((await vendorRequest(emu, 'brave')).status).toBe(500)
  })

  it.each(SEARCH)('hang on %s: accepted and never answered, the client deadline fires', async (service) => {
    emu.fault(service, { hang: true })
    await expect(vendorRequest(emu, service, 'x', AbortSignal.timeout(150))).rejects.toMatchObject({
      name: 'TimeoutError',
    })
    expect(emu.count(service)).toBe(1)
  })

  it.each(SEARCH)('reset on %s: the socket is destroyed without a response', async (service) => {
    emu.fault(service, { reset: true })
    const error = await vendorRequest(emu, service).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TypeError)
    expect(String((error as Error & { cause?: unknown }).cause)).toMatch(
      /other side closed|ECONNRESET|socket hang up|terminated/i,
    )
  })

  it.each(SEARCH)('malformedJson on %s: 200 application/json that does not parse', async (service) => {
    emu.fault(service, { malformedJson: true })
    const res = await vendorRequest(emu, service)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/application\/json/)
    const text = await res.text()
    expect(text.length).toBeGreaterThan(10)
    expect(() => JSON.parse(text)).toThrow(SyntaxError)
  })

  it.each(SEARCH)('html on %s: 200 with an HTML error page', async (service) => {
    emu.fault(service, { html: true })
    const res = await vendorRequest(emu, service)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/text\/html/)
    expect(await res.text()).toMatch(/^<!DOCTYPE html>/)
  })

  it.each([1_000, 3 * 1024 * 1024])('oversizedBytes %i: valid JSON of exactly that size', async (bytes) => {
    emu.fault('exa', { oversizedBytes: bytes })
    const res = await vendorRequest(emu, 'exa')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-length')).toBe(String(bytes))
    const buf = Buffer.from(await res.arrayBuffer())
    expect(buf.length).toBe(bytes)
    expect(JSON.parse(buf.toString('utf8'))).toHaveProperty('results')
  })

  it('endlessBody: streams until the client hangs up, then the server stops', async () => {
    emu.fault('tavily', { endlessBody: true })
    const controller = new AbortController()
    const res = await vendorRequest(emu, 'tavily', 'x', controller.signal)
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    let received = 0
    while (received < 1024 * 1024) {
      const { value, done } = await reader.read()
      expect(done).toBe(false)
      received += value!.length
    }
    controller.abort()
    await reader.cancel().catch(() => undefined)
    await expect.poll(() => emu.requests[0]?.endedAt).toBeDefined()
    expect(received).toBeGreaterThanOrEqual(1024 * 1024)
  })

  it('reply: serves the recorded status, headers and body byte for byte, with fresh framing', async () => {
    const body = '{"requestId":"d5e5","error":"x-api-key header is invalid"}'
    emu.fault('exa', {
      reply: {
        status: 400,
        headers: { 'Content-Type': 'application/json', 'x-ratelimit-limit': '450', 'Transfer-Encoding': 'chunked' },
        body,
      },
    })
    const res = await vendorRequest(emu, 'exa')
    expect(res.status).toBe(400)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(res.headers.get('x-ratelimit-limit')).toBe('450')
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(body)))
    expect(await res.text()).toBe(body)
    expect(emu.requests[0]).toMatchObject({ service: 'exa', status: 400 })
  })

  it('reply: defaults to 200 JSON', async () => {
    emu.fault('brave', { reply: { body: '{"type":"search"}' } })
    const res = await vendorRequest(emu, 'brave')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await res.json()).toEqual({ type: 'search' })
  })

  it('a fault still records the request', async () => {
    emu.fault('grok', { status: 503 })
    await vendorRequest(emu, 'grok')
    expect(emu.requests[0]).toMatchObject({ service: 'grok', status: 503 })
  })

  it('reset works with a raw node:http client too (no response bytes at all)', async () => {
    emu.fault('pages', { reset: true })
    const outcome = await new Promise<string>((resolve) => {
      const req = request(`${emu.urls.pages}/article`, (res) => resolve(`status ${res.statusCode}`))
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message))
      req.end()
    })
    expect(outcome).toBe('ECONNRESET')
  })

  it.each(['brave', 'exa', 'tavily', 'grok', 'github', 'pages', 'llm'] satisfies EmulatedService[])(
    'fault(%s, null) on a clean service is a no-op',
    (service) => {
      expect(() => emu.fault(service, null)).not.toThrow()
    },
  )
})

describe('key pools', () => {
  const braveWith = (e: Emulator, key: string) =>
    fetch(`${e.urls.brave}/res/v1/web/search?q=rust&count=2`, { headers: { 'x-subscription-token': key } })

  it('accepts every key of a pool and can fault one key only', async () => {
    const pooled = await startEmulator({ keys: { brave: ['BSApool-key-one-0001', 'BSApool-key-two-0002'] } })
    try {
      expect(pooled.keys.brave).toBe('BSApool-key-one-0001')
      expect(pooled.env.BRAVE_API_KEY).toBe('BSApool-key-one-0001')
      pooled.fault('brave', { status: 429, key: 'BSApool-key-one-0001' })
      expect((await braveWith(pooled, 'BSApool-key-two-0002')).status).toBe(200)
      expect((await braveWith(pooled, 'BSApool-key-one-0001')).status).toBe(429)
      expect((await braveWith(pooled, 'BSAnot-in-the-pool-0003')).status).toBe(422)
    } finally {
      await pooled.close()
    }
  })
})
