import { readFileSync } from 'node:fs'
import { resolveProviderDefinition, validateProviderDefinition } from '@search-layer/core'
import { type PaceStore, createMemoryPaceStore } from '@search-layer/core/http'
import { faultTimeLimit, providerFailure } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { createDuckDuckGoProvider } from './client.js'
import { duckduckgoDefinition } from './definition.js'

const emu = useEmulator()

const sent = () => emu.requests.filter((r) => r.service === 'duckduckgo')
// The pacing tests set their own interval; the others turn pacing off.
// Each provider keeps its own pace store, so a cooldown one test provokes does not hold the next test's calls.
const ddg = (options: Parameters<typeof createDuckDuckGoProvider>[0] = {}) =>
  createDuckDuckGoProvider({
    baseUrl: emu.urls.duckduckgo,
    minIntervalMs: 0,
    pace: createMemoryPaceStore(),
    ...options,
  })

describe('createDuckDuckGoProvider against the emulator', () => {
  it('needs no key, sends q/kl/df, skips the ad and unwraps redirect links', async () => {
    const provider = createDuckDuckGoProvider({ env: { DUCKDUCKGO_URL: emu.urls.duckduckgo }, minIntervalMs: 0 })
    expect(provider.isConfigured({})).toBe(true)
    const res = await provider.search({
      query: 'rust async runtime',
      num: 8,
      language: 'en',
      country: 'gb',
      freshness: 'py',
    })
    const [request] = sent()
    expect(request!.path).toBe('/duckduckgo/html/')
    expect(request!.query).toEqual({ q: 'rust async runtime', kl: 'uk-en', df: 'y' })
    expect(request!.headers['user-agent']).toMatch(/Mozilla/)
    expect(res.results).toHaveLength(8)
    for (const r of res.results) {
      expect(r.url).not.toMatch(/duckduckgo\.com|uddg=|y\.js/)
      expect(r.title).not.toMatch(/Buy Now/)
      expect(`${r.title} ${r.snippet}`).not.toMatch(/<\/?b>|&amp;|&#x27;/)
      if (r.publishedAt !== null) expect(new Date(r.publishedAt).toISOString()).toBe(r.publishedAt)
    }
    expect(res.results.some((r) => r.publishedAt !== null)).toBe(true)
    expect(res.results[0]!.rank).toBe(1)
  })

  it('replays the recorded 2025 page (uddg links) through the real client path', async () => {
    emu.fault('duckduckgo', {
      reply: {
        body: readFileSync(new URL('../test/fixtures/lofi--html-results-foo-2025.html', import.meta.url)),
        headers: { 'content-type': 'text/html; charset=UTF-8' },
      },
    })
    const res = await ddg().search({ query: 'foo', num: 10 })
    expect(res.results).toHaveLength(10)
    expect(res.results[0]!.url).toBe('https://en.wikipedia.org/wiki/Foo_Fighters')
  })

  it.each([
    ['202 challenge', 202],
    ['200 challenge', 200],
  ])('%s → rate_limited, never retried, never parsed, then a cooldown without requests', async (_label, status) => {
    let clock = 1_000_000
    const provider = ddg({ retries: 2, clock: () => clock })
    emu.fault('duckduckgo', { status, code: 'anomaly', times: 1 })
    const err = await providerFailure(provider.search({ query: 'rust' }))
    expect(err).toMatchObject({ kind: 'rate_limited', code: 'anomaly', retryable: false, status })
    expect(sent()).toHaveLength(1)
    clock += 30_000
    expect(await providerFailure(provider.search({ query: 'other' }))).toMatchObject({
      kind: 'rate_limited',
      code: 'cooldown',
      retryable: false,
      retryAfterMs: 30_000,
    })
    expect(sent()).toHaveLength(1)
    clock += 30_001
    expect((await provider.search({ query: 'other' })).results.length).toBeGreaterThan(0)
    expect(sent()).toHaveLength(2)
  })

  it('holds everyone sharing its pace store off after a challenge, without a request', async () => {
    const pace = createMemoryPaceStore()
    // Two server instances sharing one store (Redis in a server): the one challenged and one that was not.
    const challenged = ddg({ pace })
    const other = ddg({ pace })
    emu.fault('duckduckgo', { status: 202, code: 'anomaly', times: 1 })
    expect(await providerFailure(challenged.search({ query: 'rust' }))).toMatchObject({ kind: 'rate_limited' })
    const err = await providerFailure(other.search({ query: 'go' }, { deadlineAt: Date.now() + 2000 }))
    expect(err).toMatchObject({ kind: 'timeout', retryable: false })
    expect(err.message).toMatch(/next request slot comes after the deadline/)
    expect(sent()).toHaveLength(1)
  })

  it('refuses a slot a shared store gives years ahead at once, without a request or a timer overflow', async () => {
    const overflows: string[] = []
    const onWarning = (warning: Error) => {
      if (warning.name === 'TimeoutOverflowWarning') overflows.push(warning.message)
    }
    process.on('warning', onWarning)
    try {
      const far = ddg({ minIntervalMs: 1000, pace: { reserve: async () => Date.now() + 1e15 } })
      const started = Date.now()
      const err = await providerFailure(far.search({ query: 'go' }, { deadlineAt: Date.now() + 10_000 }))
      expect(err).toMatchObject({ kind: 'timeout', retryable: false })
      // Halfway to the deadline, which a client waiting for the slot would reach.
      expect(Date.now() - started).toBeLessThan(5_000)
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(overflows).toEqual([])
      expect(sent()).toHaveLength(0)
    } finally {
      process.off('warning', onWarning)
    }
  })

  it('treats the recorded anomaly page as a challenge too', async () => {
    emu.fault('duckduckgo', {
      reply: {
        body: readFileSync(new URL('../test/fixtures/meka--html-anomaly-captcha-rust-2026.html', import.meta.url)),
        headers: { 'content-type': 'text/html; charset=UTF-8' },
      },
    })
    expect(await providerFailure(ddg().search({ query: 'rust programming language' }))).toMatchObject({
      kind: 'rate_limited',
      code: 'anomaly',
    })
  })

  it.each([
    ['403 block', { status: 403 }, { kind: 'rate_limited', retryable: false }],
    ['503', { status: 503 }, { kind: 'upstream' }],
    ['hang', { hang: true }, { kind: 'timeout' }],
    ['reset', { reset: true }, { kind: 'network' }],
    ['oversized', { oversizedBytes: 300_000 }, { kind: 'bad_response' }],
  ] as const)('fault %s → %j', async (_label, fault, expected) => {
    emu.fault('duckduckgo', fault)
    const err = await providerFailure(
      ddg({ retries: 0, timeoutMs: faultTimeLimit(fault), maxBytes: 200_000 }).search({ query: 'x' }),
    )
    expect(err).toMatchObject({ provider: 'duckduckgo', ...expected })
  })

  it('refuses a body over 256 KiB by default, as no results page is that large, and accepts one just under', async () => {
    const page = (bytes: number) => {
      const head = '<div class="result"><a class="result__a" href="https://a.example/">A</a></div>'
      return `${head}${'<div class="result">'.repeat(Math.floor((bytes - head.length) / 20))}`
    }
    emu.fault('duckduckgo', { reply: { body: page(256 * 1024 - 100), headers: { 'content-type': 'text/html' } } })
    expect((await ddg({ retries: 0 }).search({ query: 'x' })).results).toHaveLength(1)
    emu.fault('duckduckgo', { reply: { body: page(256 * 1024 + 100), headers: { 'content-type': 'text/html' } } })
    expect(await providerFailure(ddg({ retries: 0 }).search({ query: 'x' }))).toMatchObject({
      provider: 'duckduckgo',
      kind: 'bad_response',
    })
  })

  it('paces requests to one base URL at least minIntervalMs apart, even when called at once', async () => {
    const provider = createDuckDuckGoProvider({ baseUrl: emu.urls.duckduckgo, minIntervalMs: 300 })
    await Promise.all([
      provider.search({ query: 'a' }),
      provider.search({ query: 'b' }),
      provider.search({ query: 'c' }),
    ])
    const starts = sent()
      .map((r) => r.startedAt)
      .sort((a, b) => a - b)
    expect(starts).toHaveLength(3)
    // Seen by the emulator, in this process: when a loaded host holds up its event loop, the first request can be
    // received late and the next on time, so a gap can read shorter than the pace the client kept. Half the pace per
    // gap, one and a half across the three: a client that does not pace sends all three within milliseconds.
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(150)
    expect(starts[2]! - starts[0]!).toBeGreaterThanOrEqual(450)
  })

  it('takes its slots from the pace store it is given: created through its definition, as the engine does', async () => {
    const shared = createMemoryPaceStore()
    const taken: string[] = []
    const pace: PaceStore = {
      reserve(key, request) {
        taken.push(`${key} ${request.intervalMs}`)
        return shared.reserve(key, request)
      },
    }
    const env = { DUCKDUCKGO_URL: emu.urls.duckduckgo }
    const one = duckduckgoDefinition.create({ env, pace })
    const two = duckduckgoDefinition.create({ env, pace })
    await Promise.all([one.search({ query: 'a' }), two.search({ query: 'b' })])
    expect(taken).toEqual([`duckduckgo:${emu.urls.duckduckgo} 1000`, `duckduckgo:${emu.urls.duckduckgo} 1000`])
    const [first, second] = sent()
      .map((r) => r.startedAt)
      .sort((a, b) => a - b)
    // Unshared paces would send both at once (~0 ms). The emulator, in this process, can log either arrival late on a
    // loaded host, so the gap is held to the interval it must not skip and a bound far above it.
    const gap = second! - first!
    expect(gap, `${gap} ms apart`).toBeGreaterThanOrEqual(850)
    expect(gap, `${gap} ms apart`).toBeLessThan(3000)
  })

  it('gives up with timeout when the pace would pass the deadline, without a request', async () => {
    const provider = createDuckDuckGoProvider({ baseUrl: emu.urls.duckduckgo, minIntervalMs: 5_000 })
    await provider.search({ query: 'first' })
    const err = await providerFailure(provider.search({ query: 'second' }, { deadlineAt: Date.now() + 500 }))
    expect(err).toMatchObject({ kind: 'timeout', retryable: false })
    expect(sent()).toHaveLength(1)
  })

  it('has a keyless, one-at-a-time definition', () => {
    expect(duckduckgoDefinition).toMatchObject({
      id: 'duckduckgo',
      keyless: true,
      routing: 'fallback',
      capabilities: ['web'],
      rateLimit: { perSecond: 1, burst: 1, maxConcurrent: 1 },
      env: { apiKey: [], baseUrl: 'DUCKDUCKGO_URL' },
    })
    expect(validateProviderDefinition(duckduckgoDefinition, 'duckduckgo')).toEqual(
      resolveProviderDefinition(duckduckgoDefinition),
    )
    expect(duckduckgoDefinition.create().name).toBe('duckduckgo')
  })
})

describe('query operators', () => {
  it('sends phrases, terms, file types and domains in q, the range in df and the language in kl', async () => {
    await ddg().search({
      query: 'error handling in rust',
      includeDomains: ['docs.rs'],
      freshness: { from: '2024-06-01', to: '2024-12-31' },
      language: 'de',
      phrases: ['error handling'],
      excludeTerms: ['tokio'],
      fileTypes: ['pdf'],
    })
    expect(sent().at(-1)!.query).toMatchObject({
      q: '"error handling" in rust -tokio filetype:pdf site:docs.rs',
      df: '2024-06-01..2024-12-31',
      kl: 'de-de',
    })
  })
})
