import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resolveProviderDefinition, validateProviderDefinition } from '@search-layer/core'
import { faultTimeLimit, providerFailure } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { createStackExchangeProvider } from './client.js'
import { stackexchangeDefinition } from './definition.js'

const emu = useEmulator()

const NOW = new Date('2026-11-20T12:00:00Z')
describe('createStackExchangeProvider against the emulator', () => {
  it('sends search/advanced with the key, reads the gzip answer, accepted answers first', async () => {
    const res = await createStackExchangeProvider({ env: emu.env }).search(
      { query: 'rust async runtime', num: 8, freshness: 'py' },
      { now: () => NOW },
    )
    const sent = emu.lastRequest('stackexchange')
    expect(sent.path).toBe('/stackexchange/2.3/search/advanced')
    expect(sent.query).toEqual({
      q: 'rust async runtime',
      site: 'stackoverflow',
      pagesize: '8',
      order: 'desc',
      sort: 'relevance',
      filter: 'withbody',
      fromdate: String(NOW.getTime() / 1000 - 365 * 86_400),
      key: emu.keys.stackexchange,
    })
    expect(res.results.length).toBeGreaterThan(0)
    const accepted = res.results.map((r) => r.extra?.accepted)
    expect(accepted).toEqual([...accepted].sort((a, b) => Number(b) - Number(a)))
    for (const r of res.results) {
      expect(r.url).toMatch(/^https:\/\/stackoverflow\.com\/questions\/\d+\//)
      expect(`${r.title} ${r.snippet}`).not.toMatch(/&(quot|#39|amp|lt|gt);|<\/?(p|code|pre)>/)
      expect(r.publishedAt).toMatch(/^\d{4}-/)
    }
    expect(res.rateLimit).toMatchObject({ quotaLimit: 10_000, quotaRemaining: 9_871 })
  })

  it('works without a key (300 a day) and sends none', async () => {
    const env = {
      STACKEXCHANGE_API_URL: emu.urls.stackexchange,
      HOME: mkdtempSync(join(tmpdir(), 'stackexchange-home-')),
    }
    const res = await createStackExchangeProvider({ env }).search({ query: 'sqlite wal' })
    expect(emu.lastRequest('stackexchange').query).not.toHaveProperty('key')
    expect(res.rateLimit?.quotaLimit).toBe(300)
  })

  it('replays the recorded 2016 answer through the real client path', async () => {
    emu.fault('stackexchange', {
      reply: {
        body: readFileSync(new URL('../test/fixtures/gaea--search-advanced-rails-2016.json', import.meta.url)),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      },
    })
    const res = await createStackExchangeProvider({ env: emu.env }).search({ query: 'rails', num: 10 })
    expect(res.results).toHaveLength(10)
    expect(res.rateLimit).toMatchObject({ quotaLimit: 300, quotaRemaining: 247 })
  })

  it('honours backoff: the next call is refused without reaching the API until it has passed', async () => {
    let clock = 1_000_000
    const se = createStackExchangeProvider({ env: emu.env, clock: () => clock })
    emu.fault('stackexchange', { status: 200, code: 'backoff', times: 1 })
    const first = await se.search({ query: 'tokio' })
    expect(first.rateLimit).toMatchObject({ remaining: 0, resetMs: 10_000 })
    clock += 4_000
    expect(await providerFailure(se.search({ query: 'tokio' }))).toMatchObject({
      kind: 'rate_limited',
      code: 'backoff',
      retryAfterMs: 6_000,
    })
    expect(emu.count('stackexchange')).toBe(1)
    clock += 6_001
    expect((await se.search({ query: 'tokio' })).results.length).toBeGreaterThan(0)
    expect(emu.count('stackexchange')).toBe(2)
  })

  it.each([
    [
      'daily throttle_violation',
      { status: 400, code: 'throttle_violation' },
      { kind: 'quota', retryAfterMs: 82_216_000 },
    ],
    ['bad parameter', { status: 400, code: 'bad_parameter' }, { kind: 'bad_request', retryable: false }],
    ['access_denied', { status: 403 }, { kind: 'auth' }],
    ['temporarily_unavailable', { status: 503 }, { kind: 'upstream', retryable: true }],
    ['hang', { hang: true }, { kind: 'timeout' }],
    ['malformed JSON', { malformedJson: true }, { kind: 'bad_response' }],
  ] as const)('fault %s → %j, key never shown', async (_label, fault, expected) => {
    emu.fault('stackexchange', fault)
    const se = createStackExchangeProvider({ env: emu.env, retries: 0, timeoutMs: faultTimeLimit(fault) })
    const err = await providerFailure(se.search({ query: 'x' }))
    expect(err).toMatchObject({ provider: 'stackexchange', ...expected })
    expect(err.message).not.toContain(emu.keys.stackexchange)
  })

  it('maps a refused key to auth', async () => {
    const err = await providerFailure(
      createStackExchangeProvider({ env: emu.env, key: 'wrongKey00((' }).search({ query: 'x' }),
    )
    expect(err).toMatchObject({ kind: 'auth', code: 'bad_parameter' })
    expect(err.message).not.toContain('wrongKey00((')
  })

  it('has a keyless definition with the optional key variable', () => {
    expect(stackexchangeDefinition).toMatchObject({
      id: 'stackexchange',
      keyless: true,
      env: { apiKey: ['STACKEXCHANGE_KEY'], baseUrl: 'STACKEXCHANGE_API_URL' },
    })
    expect(validateProviderDefinition(stackexchangeDefinition, 'stackexchange')).toEqual(
      resolveProviderDefinition(stackexchangeDefinition),
    )
    expect(stackexchangeDefinition.create().name).toBe('stackexchange')
  })
})
