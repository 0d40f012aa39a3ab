import { readFileSync } from 'node:fs'
import { type ParsedProviderRequest, ProviderError, ProviderRequestSchema } from '@search-layer/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  buildGithubQuery,
  githubSearchKind,
  mapGithubError,
  mapGithubIssues,
  mapGithubRepositories,
  parseGithubRateLimit,
} from './map.js'
import { GithubSearchResponseSchema } from './schema.js'

const raw = (name: string) => readFileSync(new URL(`../test/fixtures/${name}`, import.meta.url), 'utf8')
const fixture = (name: string) => GithubSearchResponseSchema.parse(JSON.parse(raw(name)))
const req = (input: Record<string, unknown> = {}): ParsedProviderRequest =>
  ProviderRequestSchema.parse({ query: 'github', ...input })
const NOW = new Date('2026-11-20T12:00:00Z')

describe('request building', () => {
  it.each([
    ['http client library', 'repositories'],
    ['tokio panic on shutdown', 'issues'],
    ['vite build fails after upgrade', 'issues'],
    ['is the memory leak fixed in node 22', 'issues'],
    ['TypeError: cannot read properties of undefined', 'issues'],
    ['rust web framework', 'repositories'],
    ['Segfault In Release Build', 'issues'],
    ['java.lang.NullPointerException in spring boot', 'issues'],
    ['terror movie dataset', 'repositories'],
  ])('%s → %s', (query, kind) => {
    expect(githubSearchKind(query)).toBe(kind)
  })

  it('adds is:issue and a date qualifier that fits the kind', () => {
    expect(buildGithubQuery('repositories', req({ num: 5, freshness: 'pm' }), NOW)).toEqual({
      q: 'github pushed:>=2026-10-20',
      per_page: 5,
    })
    expect(
      buildGithubQuery('issues', req({ num: 100, freshness: { from: '2026-01-01', to: '2026-02-01' } }), NOW),
    ).toEqual({
      q: 'github is:issue updated:2026-01-01..2026-02-01',
      per_page: 100,
    })
  })
})

describe('mapping recorded answers', () => {
  it('maps all 30 recorded repositories: web URL, description, stars/language/pushed_at', () => {
    const { results, dropped } = mapGithubRepositories(
      fixture('pygithub--search-repositories-github-language-python-2013.json'),
      req({ num: 100 }),
    )
    expect(dropped).toBe(0)
    expect(results).toHaveLength(30)
    expect(results[0]).toMatchObject({
      title: 'kennethreitz/legit',
      url: 'https://github.com/kennethreitz/legit',
      snippet: 'Git for Humans, Inspired by GitHub for Mac™.',
      publishedAt: '2014-01-27T17:39:31.000Z',
      provider: 'github',
      rank: 1,
      extra: { type: 'repository', stars: 3036, language: 'Python', pushedAt: '2014-01-27T17:39:31.000Z' },
    })
    for (const r of results) {
      expect(r.url).toMatch(/^https:\/\/github\.com\/[^/]+\/[^/]+$/)
      expect(r.url).not.toContain('api.github.com')
      expect(r.publishedAt).not.toBeNull()
    }
  })

  it('maps both recorded issues with repository, state and body snippet', () => {
    const { results } = mapGithubIssues(fixture('octokit-fixtures--search-issues-sesame-2022.json'), req())
    expect(results.map((r) => r.title)).toEqual(['Sesame seeds split without a pop!', 'The doors don’t open'])
    expect(results[0]).toMatchObject({
      url: 'https://github.com/octokit-fixture-org/tmp-scenario-search-issues-20220719044045959-jlcli/issues/2',
      snippet: 'I’ve waited all year long, but there was no pop 😭',
      publishedAt: '2022-07-19T04:40:52.000Z',
      extra: {
        type: 'issue',
        number: 2,
        state: 'open',
        comments: 0,
        repository: 'octokit-fixture-org/tmp-scenario-search-issues-20220719044045959-jlcli',
      },
    })
  })

  it('survives arbitrary items', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), (items) => {
        for (const map of [mapGithubRepositories, mapGithubIssues]) {
          try {
            for (const r of map({ items }, req({ num: 100 })).results) expect(r.url).toMatch(/^https?:\/\//)
          } catch (error) {
            expect(error).toBeInstanceOf(ProviderError)
          }
        }
      }),
      { numRuns: 200 },
    )
  })
})

describe('mapGithubError', () => {
  const res = (status: number, json: unknown, headers: Record<string, string> = {}, retryAfterMs?: number) => ({
    status,
    headers,
    text: JSON.stringify(json),
    json,
    retryAfterMs,
  })

  it('reads the recorded 403 abuse answer as rate_limited with its Retry-After', () => {
    const err = mapGithubError(
      res(403, JSON.parse(raw('pygithub--error-403-abuse-detection-search-code-2018.json')), {}, 60_000),
    )
    expect(err).toMatchObject({
      kind: 'rate_limited',
      retryable: true,
      retryAfterMs: 60_000,
      code: 'secondary_rate_limit',
    })
    expect(err?.message).toContain('retry after 60s')
  })

  it('waits a minute for a secondary limit without Retry-After', () => {
    const body = {
      message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
    }
    expect(mapGithubError(res(429, body))).toMatchObject({ kind: 'rate_limited', retryAfterMs: 60_000 })
  })

  it('waits until x-ratelimit-reset when the primary limit is spent', () => {
    const now = Date.parse('2026-11-20T12:00:00Z')
    const err = mapGithubError(
      res(
        403,
        { message: 'API rate limit exceeded for 203.0.113.7.' },
        { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 42) },
      ),
      [],
      now,
    )
    expect(err).toMatchObject({ kind: 'rate_limited', retryAfterMs: 42_000, code: 'rate_limit' })
  })

  it.each([
    ['a Unix time in 9999', '253402300799'],
    ['400 digits', '9'.repeat(400)],
    ['a negative time', '-1'],
  ])('waits no time for a spent primary limit whose reset is %s', (_name, reset) => {
    const headers = { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }
    const err = mapGithubError(res(403, { message: 'API rate limit exceeded for 203.0.113.7.' }, headers))
    expect(err).toMatchObject({ kind: 'rate_limited', code: 'rate_limit' })
    expect(err?.retryAfterMs).toBeUndefined()
    expect(parseGithubRateLimit(headers)).toEqual({ limit: 10, remaining: 0 })
  })

  it.each([
    [401, { message: 'Bad credentials' }, 'auth'],
    [403, { message: 'Resource not accessible by personal access token' }, 'auth'],
    [422, { message: 'Validation Failed', errors: [{ message: 'bad qualifier' }] }, 'bad_request'],
  ])('%i → %s, the token never in the message', (status, body, kind) => {
    const token = 'ghp_secretsecretsecretsecretsecret0001'
    const err = mapGithubError(res(status, { ...body, echoed: token }), [token])
    expect(err?.kind).toBe(kind)
    expect(err?.message).not.toContain(token)
  })

  it('reads the search rate-limit headers', () => {
    const now = Date.parse('2026-11-20T12:00:00Z')
    expect(
      parseGithubRateLimit(
        { 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '29', 'x-ratelimit-reset': String(now / 1000 + 60) },
        now,
      ),
    ).toEqual({ limit: 30, remaining: 29, resetMs: 60_000 })
    expect(parseGithubRateLimit({})).toBeUndefined()
  })
})
