import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { providerFailure } from '@search-layer/testkit'
import { resolveProviderDefinition, validateProviderDefinition } from '@search-layer/core'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { createGithubProvider } from './client.js'
import { githubDefinition } from './definition.js'

const emu = useEmulator()

const NOW = new Date('2026-11-20T12:00:00Z')
describe('createGithubProvider against the emulator', () => {
  it('searches repositories with the token as a Bearer header and reports the search rate limit', async () => {
    const res = await createGithubProvider({ env: emu.env }).search({ query: 'rust async runtime', num: 5 })
    const sent = emu.lastRequest('github')
    expect(sent.path).toBe('/github/search/repositories')
    expect(sent.query).toEqual({ q: 'rust async runtime', per_page: '5' })
    expect(sent.headers.authorization).toBe(`Bearer ${emu.keys.github}`)
    expect(sent.headers['x-github-api-version']).toBe('2022-11-28')
    expect(sent.headers['user-agent']).toBe('search-layer')
    expect(res.results).toHaveLength(5)
    for (const r of res.results) {
      expect(r.url).toMatch(/^https:\/\/github\.com\/[^/]+\/[^/]+$/)
      expect(r.extra).toMatchObject({ stars: expect.any(Number) })
      expect(r.publishedAt).toBe(r.extra?.pushedAt)
    }
    expect(res.rateLimit).toMatchObject({ limit: 30, remaining: 29, resetMs: expect.any(Number) })
  })

  it('works without a token (10 searches a minute) and sends no Authorization', async () => {
    const env = { GITHUB_API_URL: emu.urls.github, HOME: mkdtempSync(join(tmpdir(), 'github-home-')) }
    const github = createGithubProvider({ env })
    expect(github.isConfigured(env)).toBe(true)
    const res = await github.search({ query: 'http client' })
    expect(emu.lastRequest('github').headers.authorization).toBeUndefined()
    expect(res.rateLimit?.limit).toBe(10)
  })

  it('searches issues for a bug query, with is:issue and an updated: window', async () => {
    const res = await createGithubProvider({ env: emu.env }).search(
      { query: 'tokio panic on shutdown', freshness: 'py' },
      { now: () => NOW },
    )
    expect(emu.lastRequest('github').path).toBe('/github/search/issues')
    expect(emu.lastRequest('github').query.q).toBe('tokio panic on shutdown is:issue updated:>=2025-11-20')
    expect(res.results.length).toBeGreaterThan(0)
    for (const r of res.results) {
      expect(r.url).toMatch(/^https:\/\/github\.com\/[^/]+\/[^/]+\/issues\/\d+$/)
      expect(r.extra).toMatchObject({ type: 'issue', state: expect.stringMatching(/^(open|closed)$/) })
      expect(r.snippet).not.toMatch(/&amp;|<https/)
    }
  })

  it('replays the recorded repository search through the real client path', async () => {
    emu.fault('github', {
      reply: {
        body: readFileSync(
          new URL('../test/fixtures/pygithub--search-repositories-github-language-python-2013.json', import.meta.url),
        ),
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'x-ratelimit-limit': '30',
          'x-ratelimit-remaining': '29',
        },
      },
    })
    const res = await createGithubProvider({ env: emu.env }).search({ query: 'github language:Python', num: 30 })
    expect(res.results).toHaveLength(30)
    expect(res.dropped).toBe(0)
    expect(res.rateLimit).toMatchObject({ limit: 30, remaining: 29 })
  })

  it.each([
    ['secondary limit', { status: 403, code: 'secondary' }, { kind: 'rate_limited', retryAfterMs: 60_000 }],
    ['abuse detection', { status: 403, code: 'abuse' }, { kind: 'rate_limited', retryAfterMs: 60_000 }],
    ['primary search limit', { status: 403, code: 'search' }, { kind: 'rate_limited', retryAfterMs: 60_000 }],
    ['429', { status: 429 }, { kind: 'rate_limited', retryAfterMs: expect.any(Number) }],
    ['bad token', { status: 401 }, { kind: 'auth' }],
    ['422', { status: 422 }, { kind: 'bad_request', retryable: false }],
    ['503', { status: 503 }, { kind: 'upstream', retryable: true }],
    ['hang', { hang: true }, { kind: 'timeout' }],
    ['HTML', { html: true }, { kind: 'bad_response' }],
  ] as const)('fault %s → %j, not retried past a minute, token never shown', async (_label, fault, expected) => {
    emu.fault('github', fault)
    const err = await providerFailure(
      createGithubProvider({ env: emu.env, timeoutMs: 300 }).search({ query: 'x', num: 1 }, { now: () => NOW }),
    )
    expect(err).toMatchObject({ provider: 'github', ...expected })
    expect(err.message).not.toContain(emu.keys.github)
    if (err.kind === 'rate_limited' && (err.retryAfterMs ?? 0) > 5000) expect(emu.count('github')).toBe(1)
  })

  it('after a secondary limit, refuses calls without a request until the wait has passed', async () => {
    let clock = 1_000_000
    const github = createGithubProvider({ env: emu.env, clock: () => clock })
    emu.fault('github', { status: 403, code: 'secondary', times: 1 })
    expect(await providerFailure(github.search({ query: 'x' }, { now: () => NOW }))).toMatchObject({
      retryAfterMs: 60_000,
    })
    clock += 20_000
    expect(await providerFailure(github.search({ query: 'y' }, { now: () => NOW }))).toMatchObject({
      kind: 'rate_limited',
      code: 'rate_limit_wait',
      retryAfterMs: 40_000,
    })
    expect(emu.count('github')).toBe(1)
    clock += 40_001
    expect((await github.search({ query: 'y' }, { now: () => NOW })).results.length).toBeGreaterThan(0)
    expect(emu.count('github')).toBe(2)
  })

  it('holds a day-long Retry-After to an hour, and ignores a reset in 9999', async () => {
    let clock = 1_000_000
    const github = createGithubProvider({ env: emu.env, clock: () => clock })
    emu.fault('github', { status: 403, code: 'secondary', retryAfterSec: 86_400, times: 1 })
    expect(await providerFailure(github.search({ query: 'x' }, { now: () => NOW }))).toMatchObject({
      retryAfterMs: 86_400_000,
    })
    expect((await providerFailure(github.search({ query: 'y' }, { now: () => NOW }))).retryAfterMs).toBe(3_600_000)
    clock += 3_600_001
    emu.fault('github', {
      reply: {
        body: JSON.stringify({ total_count: 0, incomplete_results: false, items: [] }),
        headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '253402300799' },
      },
      times: 1,
    })
    const answer = await github.search({ query: 'z' }, { now: () => NOW })
    expect(answer.rateLimit).toEqual({ limit: 10, remaining: 0 })
    expect((await github.search({ query: 'w' }, { now: () => NOW })).results.length).toBeGreaterThan(0)
  })

  it("after the window's last search (remaining 0), waits for x-ratelimit-reset", async () => {
    const clock = 5_000_000
    const github = createGithubProvider({ env: emu.env, clock: () => clock })
    emu.fault('github', {
      reply: {
        body: JSON.stringify({ total_count: 0, incomplete_results: false, items: [] }),
        headers: {
          'x-ratelimit-limit': '10',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(NOW.getTime() / 1000 + 30),
        },
      },
      times: 1,
    })
    expect((await github.search({ query: 'x' }, { now: () => NOW })).rateLimit).toMatchObject({
      remaining: 0,
      resetMs: 30_000,
    })
    expect(await providerFailure(github.search({ query: 'x' }, { now: () => NOW }))).toMatchObject({
      code: 'rate_limit_wait',
      retryAfterMs: 30_000,
    })
    expect(emu.count('github')).toBe(1)
  })

  it('has a keyless definition reading the GitHub token variables', () => {
    expect(githubDefinition).toMatchObject({
      id: 'github',
      keyless: true,
      routing: 'vertical',
      capabilities: ['code'],
      env: { apiKey: ['GITHUB_TOKEN', 'GH_TOKEN'], baseUrl: 'GITHUB_API_URL' },
    })
    // `github` is a valid provider id: its config entry is the one thread-fetch reads its token from.
    expect(validateProviderDefinition(githubDefinition, 'github')).toEqual(resolveProviderDefinition(githubDefinition))
    expect(githubDefinition.create().name).toBe('github')
  })
})

describe('query operators', () => {
  it('quotes phrases in q beside the date qualifier', async () => {
    await createGithubProvider({ env: emu.env }).search(
      {
        query: 'error handling rust',
        phrases: ['error handling'],
        freshness: { from: '2024-06-01', to: '2024-12-31' },
      },
      { now: () => NOW },
    )
    expect(emu.lastRequest('github').query.q).toMatch(/^"error handling" rust .*:2024-06-01\.\.2024-12-31$/)
  })
})
