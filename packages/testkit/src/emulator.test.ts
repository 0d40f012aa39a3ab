import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { postJson, vendorRequest } from './_test-helpers.js'
import { DEFAULT_KEYS, type Emulator, startEmulator } from './index.js'

let emu: Emulator
beforeEach(async () => {
  emu ??= await startEmulator()
  emu.reset()
})
afterAll(() => emu?.close())

describe('startEmulator', () => {
  it('listens on loopback and exposes base URLs exactly as the config expects', () => {
    expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(emu.urls).toEqual({
      brave: `${emu.url}/brave`,
      exa: `${emu.url}/exa`,
      tavily: `${emu.url}/tavily`,
      grok: `${emu.url}/xai/v1`,
      github: `${emu.url}/github`,
      pages: `${emu.url}/pages`,
      llm: `${emu.url}/llm/v1`,
      hackernews: `${emu.url}/hn/api/v1`,
      wikipedia: `${emu.url}/wikipedia/{lang}`,
      stackexchange: `${emu.url}/stackexchange/2.3`,
      searxng: `${emu.url}/searxng`,
      duckduckgo: `${emu.url}/duckduckgo`,
      bocha: `${emu.url}/bocha/v1`,
    })
  })

  it('builds env for every service with the default keys', () => {
    expect(emu.keys).toEqual(DEFAULT_KEYS)
    expect(emu.env).toMatchObject({
      BRAVE_API_KEY: DEFAULT_KEYS.brave,
      BRAVE_API_URL: emu.urls.brave,
      EXA_API_KEY: DEFAULT_KEYS.exa,
      EXA_API_URL: emu.urls.exa,
      TAVILY_API_KEY: DEFAULT_KEYS.tavily,
      TAVILY_API_URL: emu.urls.tavily,
      XAI_API_KEY: DEFAULT_KEYS.grok,
      GROK_API_URL: emu.urls.grok,
      GITHUB_TOKEN: DEFAULT_KEYS.github,
      GITHUB_API_URL: emu.urls.github,
      SEARCH_LAYER_LLM_URL: emu.urls.llm,
      SEARCH_LAYER_LLM_KEY: DEFAULT_KEYS.llm,
      SEARCH_LAYER_ALLOW_PRIVATE_HOSTS: '1',
    })
    expect(emu.env.GROK_MODEL).toBeTruthy()
    expect(emu.env.SEARCH_LAYER_LLM_MODEL).toBeTruthy()
  })

  it('accepts custom keys and rejects the defaults then', async () => {
    const custom = await startEmulator({ keys: { exa: 'exa-custom-key-9' } })
    try {
      expect(custom.keys.exa).toBe('exa-custom-key-9')
      expect(
        (await postJson(`${custom.urls.exa}/search`, { query: 'x' }, { 'x-api-key': DEFAULT_KEYS.exa })).status,
      ).toBe(401)
      expect(
        (await postJson(`${custom.urls.exa}/search`, { query: 'x' }, { 'x-api-key': 'exa-custom-key-9' })).status,
      ).toBe(200)
    } finally {
      await custom.close()
    }
  })

  it('answers 404 JSON outside the service prefixes', async () => {
    const res = await fetch(`${emu.url}/nope`)
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ error: 'no emulated service at /nope' })
    expect(emu.count()).toBe(0)
  })
})

describe('request log', () => {
  it('records method, path, query, headers, parsed body and status', async () => {
    await vendorRequest(emu, 'brave', 'kubernetes pods')
    await postJson(`${emu.urls.exa}/search`, { query: 'postgres', numResults: 3 }, { 'x-api-key': emu.keys.exa })
    expect(emu.requests).toHaveLength(2)
    const [brave, exa] = emu.requests
    expect(brave).toMatchObject({
      id: 1,
      service: 'brave',
      method: 'GET',
      path: '/brave/res/v1/web/search',
      query: { q: 'kubernetes pods', count: '5' },
      status: 200,
    })
    expect(brave!.headers['x-subscription-token']).toBe(emu.keys.brave)
    expect(brave!.body).toBeUndefined()
    expect(exa).toMatchObject({
      id: 2,
      service: 'exa',
      method: 'POST',
      path: '/exa/search',
      body: { query: 'postgres', numResults: 3 },
      status: 200,
    })
    expect(exa!.endedAt).toBeGreaterThanOrEqual(exa!.startedAt)
  })

  it('keeps a non-JSON body as raw text', async () => {
    await fetch(`${emu.urls.exa}/search`, {
      method: 'POST',
      headers: { 'x-api-key': emu.keys.exa },
      body: 'query=plain',
    })
    expect(emu.requests[0]!.body).toBe('query=plain')
  })

  it('counts per service and overall', async () => {
    await Promise.all([vendorRequest(emu, 'brave'), vendorRequest(emu, 'brave'), vendorRequest(emu, 'tavily')])
    expect(emu.count()).toBe(3)
    expect(emu.count('brave')).toBe(2)
    expect(emu.count('tavily')).toBe(1)
    expect(emu.count('exa')).toBe(0)
  })

  it('measures the highest concurrency (parallel fan-out is visible)', async () => {
    emu.latency('exa', 150)
    emu.latency('tavily', 150)
    await Promise.all([
      vendorRequest(emu, 'exa'),
      vendorRequest(emu, 'exa'),
      vendorRequest(emu, 'exa'),
      vendorRequest(emu, 'tavily'),
    ])
    expect(emu.maxInFlight('exa')).toBe(3)
    expect(emu.maxInFlight('tavily')).toBe(1)
    expect(emu.maxInFlight()).toBe(4)
    emu.reset()
    await vendorRequest(emu, 'exa')
    await vendorRequest(emu, 'exa')
    expect(emu.maxInFlight('exa')).toBe(1)
  })

  it('reset clears log, counters, faults and latencies', async () => {
    emu.fault('brave', { status: 500 })
    await vendorRequest(emu, 'brave')
    emu.latency('brave', 60_000)
    emu.reset()
    expect(emu.requests).toHaveLength(0)
    expect(emu.count()).toBe(0)
    const started = Date.now()
    const res = await vendorRequest(emu, 'brave')
    expect(res.status).toBe(200)
    // A latency that survived the reset would hold the reply a minute.
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(emu.requests[0]!.id).toBe(1)
  })
})

describe('latency', () => {
  it.each([
    ['per-service setter', async () => emu.latency('tavily', 120)],
    ['fault latencyMs', async () => emu.fault('tavily', { latencyMs: 120 })],
  ])('delays answers (%s)', async (_name, setup) => {
    await setup()
    const started = performance.now()
    const res = await vendorRequest(emu, 'tavily')
    expect(res.status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(110)
  })

  it('applies the latencyMs option globally or per service', async () => {
    const slow = await startEmulator({ latencyMs: { exa: 1000 } })
    try {
      let t = performance.now()
      await vendorRequest(slow, 'exa')
      expect(performance.now() - t).toBeGreaterThanOrEqual(990)
      t = performance.now()
      await vendorRequest(slow, 'brave')
      // Halfway to Exa's latency, which Brave would wait if the option applied to every service.
      expect(performance.now() - t).toBeLessThan(500)
    } finally {
      await slow.close()
    }
  })
})

describe('close', () => {
  it('ends hanging requests and stops listening', async () => {
    const e = await startEmulator()
    e.fault('exa', { hang: true })
    const pending = vendorRequest(e, 'exa')
    await vi.waitFor(() => expect(e.count('exa')).toBe(1), { timeout: 5_000, interval: 10 })
    await e.close()
    await expect(pending).rejects.toThrow()
    await expect(fetch(`${e.url}/pages/article`)).rejects.toThrow()
  })

  it('does not wait for a pending latency timer', async () => {
    const e = await startEmulator({ latencyMs: 60_000 })
    const pending = vendorRequest(e, 'brave').catch((error: unknown) => error)
    await vi.waitFor(() => expect(e.count('brave')).toBe(1), { timeout: 5_000, interval: 10 })
    const t = performance.now()
    await e.close()
    expect(performance.now() - t).toBeLessThan(10_000)
    expect(await pending).toBeInstanceOf(Error)
  })
})
