import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ProviderError } from '@search-layer/core'
import { type Emulator, startEmulator } from '@search-layer/testkit'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { githubAuth } from './_github-client.js'
import { fetchThread, threadRefsOnly } from './index.js'

let emu: Emulator
let home: string

beforeAll(async () => {
  // The real clock, so x-ratelimit-reset lies an hour ahead of Date.now().
  emu = await startEmulator({ now: () => new Date() })
  home = mkdtempSync(join(tmpdir(), 'thread-fetch-home-'))
})
afterAll(() => emu.close())
beforeEach(() => emu.reset())

const env = () => ({ ...emu.env, HOME: home })
const githubRequests = () => emu.requests.filter((r) => r.service === 'github')

describe('GitHub issues', () => {
  it('returns all 150 comments of octo/demo#1, fetching both comment pages in parallel', async () => {
    const thread = await fetchThread('https://github.com/octo/demo/issues/1', { env: env() })
    expect(thread).toMatchObject({
      type: 'github_issue',
      url: 'https://github.com/octo/demo/issues/1',
      state: 'closed',
    })
    expect(thread.title).toMatch(/Client hangs forever/)
    expect(thread.labels).toEqual(['bug', 'needs-triage', 'area/networking'])
    expect(thread.comments).toHaveLength(150)
    expect(new Set(thread.comments.map((c) => c.id)).size).toBe(150)
    expect(thread.metadata).toMatchObject({ repo: 'octo/demo', number: 1, commentCount: 150, authenticated: true })
    expect(thread.metadata.truncated).toBeUndefined()
    const pages = githubRequests()
      .filter((r) => r.path.endsWith('/issues/1/comments'))
      .map((r) => r.query.page)
    expect(pages.sort()).toEqual(['1', '2'])
    expect(githubRequests().every((r) => r.headers.authorization === `Bearer ${emu.keys.github}`)).toBe(true)
  })

  it('types the references of the thread, specific types winning', async () => {
    const thread = await fetchThread('https://www.github.com/octo/demo/issues/1#issuecomment-1', { env: env() })
    const byKey = new Map(thread.refs.map((r) => [r.key, r]))
    expect(byKey.get('github:octo/demo#17')?.type).toBe('duplicate')
    for (const n of [45, 46, 47, 48, 49]) expect(byKey.get(`github:octo/demo#${n}`)?.type).toBe('fixes')
    expect(byKey.get('github:octo/other#12')).toMatchObject({
      type: 'issue',
      url: 'https://github.com/octo/other/issues/12',
    })
    expect(byKey.get('github:octo/demo#9')).toMatchObject({ type: 'issue', text: 'GH-9' })
    expect(byKey.get('github:octo/demo#7')?.type).toBe('issue')
    expect(byKey.get('github:octo/demo#8')).toMatchObject({ type: 'pr', url: 'https://github.com/octo/demo/pull/8' })
    expect(thread.refs.find((r) => r.url === 'http://localhost:8080/debug?trace=1&verbose=true')?.type).toBe('url')
    expect(thread.refs.some((r) => r.type === 'commit' && r.sha?.length === 7 && r.source.startsWith('comment:'))).toBe(
      true,
    )
    expect(thread.refs.some((r) => r.type === 'commit' && r.source === 'timeline')).toBe(true)
    const crossPr = thread.refs.filter((r) => r.type === 'cross_ref_pr')
    const crossIssue = thread.refs.filter((r) => r.type === 'cross_ref_issue')
    expect(crossPr.length).toBeGreaterThan(0)
    expect(crossIssue.length).toBeGreaterThan(0)
    expect(crossPr[0]).toMatchObject({ title: expect.stringContaining('Follow-up'), source: 'timeline' })
    // The thread never references itself, and keys are unique.
    expect(byKey.has('github:octo/demo#1')).toBe(false)
    expect(byKey.size).toBe(thread.refs.length)
    expect(thread.metadata.timeline).toMatchObject({ events: 40 })
    expect(thread.metadata.closedBy).toMatchObject({ commit: expect.stringMatching(/^[0-9a-f]{40}$/) })
  })

  it('reads a timeline of several pages (last link, then parallel)', async () => {
    emu.github.addIssue({ owner: 'octo', repo: 'long', number: 9, title: 'Long timeline', comments: 0, timeline: 250 })
    const thread = await fetchThread('https://github.com/octo/long/issues/9', { env: env() })
    expect(thread.metadata.timeline).toMatchObject({ events: 250 })
    const pages = githubRequests()
      .filter((r) => r.path.endsWith('/timeline'))
      .map((r) => r.query.page)
    expect(pages.sort()).toEqual(['1', '2', '3'])
    expect(thread.comments).toHaveLength(0)
  })

  it('fetches comment pages, timeline and the issue lists concurrently once the count is known', async () => {
    emu.github.addIssue({ owner: 'octo', repo: 'busy', number: 1, title: 'Busy', comments: 450, timeline: 5 })
    // Long enough that the fourth request is sent before the first answers even on a loaded host (at 50 ms, CI once
    // saw three in flight): the case is about the cap, not about this machine's speed.
    emu.latency('github', 300)
    const thread = await fetchThread('https://github.com/octo/busy/issues/1', { env: env(), concurrency: 4 })
    expect(thread.comments).toHaveLength(450)
    expect(thread.comments.at(-1)!.body).not.toBe(thread.comments[0]!.body)
    expect(emu.maxInFlight('github')).toBe(4)
    expect(threadRefsOnly(thread)).toMatchObject({ url: thread.url, type: 'github_issue', refs: thread.refs })
  })

  it('bounds comments with maxComments and says what was cut', async () => {
    const thread = await fetchThread('https://github.com/octo/demo/issues/1', { env: env(), maxComments: 30 })
    expect(thread.comments).toHaveLength(30)
    expect(thread.metadata.truncated).toEqual({ comments: { returned: 30, cut: 120 } })
    expect(githubRequests().filter((r) => r.path.endsWith('/issues/1/comments'))).toHaveLength(1)
  })

  it('returns a merged PR with its reviews and inline review comments', async () => {
    const thread = await fetchThread('https://github.com/octo/demo/pull/2', { env: env() })
    expect(thread).toMatchObject({ type: 'github_pr', state: 'merged', labels: ['enhancement'] })
    expect(thread.comments.filter((c) => c.kind === 'comment')).toHaveLength(2)
    const reviews = thread.comments.filter((c) => c.kind === 'review')
    expect(reviews.map((r) => r.reviewState)).toEqual(['COMMENTED', 'CHANGES_REQUESTED', 'APPROVED'])
    const inline = thread.comments.filter((c) => c.kind === 'review_comment')
    expect(inline.map((c) => [c.path, c.line])).toEqual([
      ['src/http.ts', 42],
      ['src/http.ts', 88],
      ['test/http.test.ts', 12],
    ])
    expect(thread.metadata.pull).toMatchObject({
      merged: true,
      mergeCommit: expect.stringMatching(/^[0-9a-f]{40}$/),
      base: 'main',
    })
    const refs = new Map(thread.refs.map((r) => [r.key, r]))
    expect(refs.get('github:octo/demo#1')?.type).toBe('closes')
    expect(refs.get('github:nodejs/undici#1412')).toMatchObject({
      type: 'issue',
      source: expect.stringMatching(/^review_comment:/),
    })
    expect(refs.get('github:octo/demo@3f1c2ab')).toMatchObject({ type: 'commit' })
  })

  it.each([
    ['https://github.com/octo/demo/issues/404', 404, 'not_found'],
    ['https://github.com/octo/demo/issues/3', 410, 'gone'],
  ])('%s rejects with a %i ProviderError', async (url, status, code) => {
    const error = await fetchThread(url, { env: env() }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProviderError)
    expect(error).toMatchObject({ kind: 'upstream', status, code, retryable: false })
  })

  it('follows a transferred issue (301) and says where it moved from', async () => {
    const thread = await fetchThread('https://github.com/octo/demo/issues/5', { env: env() })
    expect(thread).toMatchObject({
      url: 'https://github.com/octo/renamed/issues/5',
      title: 'Support proxies configured through HTTPS_PROXY',
    })
    expect(thread.metadata).toMatchObject({ movedFrom: 'octo/demo#5', repo: 'octo/renamed' })
    expect(thread.comments).toHaveLength(3)
  })
})

describe('GitHub pagination keeps the token at home', () => {
  it('follows rel="next" links on the API origin one by one', async () => {
    emu.github.addIssue({
      owner: 'octo',
      repo: 'next-only',
      number: 1,
      comments: 0,
      timeline: 250,
      paging: { rels: 'next' },
    })
    const thread = await fetchThread('https://github.com/octo/next-only/issues/1', { env: env() })
    expect(thread.metadata.timeline).toMatchObject({ events: 250 })
    expect(thread.metadata.warnings).toBeUndefined()
    const pages = githubRequests().filter((r) => r.path.endsWith('/timeline'))
    expect(pages.map((r) => r.query.page)).toEqual(['1', '2', '3'])
  })

  it.each([
    ['another loopback port', (other: Emulator) => other.urls.github],
    ['a different scheme', (other: Emulator) => other.urls.github.replace('http:', 'https:')],
  ])('stops at a next link on %s, with a warning, and never sends it the token', async (_name, base) => {
    const other = await startEmulator()
    try {
      emu.github.addIssue({
        owner: 'octo',
        repo: 'hostile',
        number: 1,
        comments: 0,
        timeline: 250,
        paging: { rels: 'next', linkBase: base(other) },
      })
      const thread = await fetchThread('https://github.com/octo/hostile/issues/1', { env: env() })
      expect(other.requests).toEqual([])
      expect(thread.error).toBeUndefined()
      expect(thread.metadata.timeline).toMatchObject({ events: 100 })
      expect(thread.metadata.truncated).toMatchObject({ timeline: { returned: 100, cut: 1 } })
      const origin = new URL(base(other)).origin
      expect(thread.metadata.warnings).toEqual([
        `GitHub's next page of /repos/octo/hostile/issues/1/timeline is on another origin (${origin}); not followed`,
      ])
      // Every request that did go out went to the configured API, with the token.
      const sent = githubRequests()
      expect(sent.length).toBeGreaterThan(0)
      expect(sent.every((r) => r.headers.authorization === `Bearer ${emu.keys.github}`)).toBe(true)
    } finally {
      await other.close()
    }
  })
})

describe('GitHub rate limits', () => {
  it('fails with rate_limited when the primary limit resets after the deadline', async () => {
    emu.fault('github', { status: 403 })
    const started = Date.now()
    const error = await fetchThread('https://github.com/octo/demo/issues/1', { env: env(), deadlineMs: 5_000 }).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ProviderError)
    expect(error).toMatchObject({ kind: 'rate_limited', retryable: true, status: 403, code: 'rate_limit' })
    expect((error as ProviderError).retryAfterMs).toBeGreaterThan(3_000_000)
    expect((error as Error).message).toMatch(/after the deadline/)
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('waits out a 429 secondary limit whose Retry-After fits in the deadline', async () => {
    emu.fault('github', { status: 429, retryAfterSec: 1, times: 1 })
    const thread = await fetchThread('https://github.com/octo/renamed/issues/5', { env: env(), deadlineMs: 10_000 })
    expect(thread.comments).toHaveLength(3)
    expect(thread.metadata.rateLimitWaits).toBe(1)
  })

  it('gives up on a Retry-After beyond the deadline without waiting', async () => {
    emu.fault('github', { status: 429, retryAfterSec: 30 })
    const error = await fetchThread('https://github.com/octo/renamed/issues/5', {
      env: env(),
      deadlineMs: 3_000,
    }).catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterMs: 30_000, status: 429 })
  })

  it('never puts the token in an error message', async () => {
    const token = 'ghp_wrongtoken0000000000000000000000042'
    const error = await fetchThread('https://github.com/octo/demo/issues/1', {
      env: { ...env(), GITHUB_TOKEN: token },
    }).catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'auth', status: 401 })
    expect(JSON.stringify(error) + (error as Error).message).not.toContain(token)
  })
})

describe('GitHub token resolution', () => {
  const ghHome = () => {
    const dir = mkdtempSync(join(tmpdir(), 'thread-fetch-gh-'))
    mkdirSync(join(dir, '.config', 'gh'), { recursive: true })
    writeFileSync(
      join(dir, '.config', 'gh', 'hosts.yml'),
      'github.com:\n    user: octocat\n    oauth_token: gho_fromghconfig000000000000000000001\n    git_protocol: https\n',
    )
    return dir
  }

  it('uses gh hosts.yml for api.github.com when no env token is set', () => {
    const dir = ghHome()
    expect(githubAuth({ env: { HOME: dir } })).toEqual({
      baseUrl: 'https://api.github.com',
      token: 'gho_fromghconfig000000000000000000001',
      tokenSource: 'gh:hosts.yml',
    })
  })

  it('prefers GITHUB_TOKEN, then GH_TOKEN', () => {
    const dir = ghHome()
    expect(githubAuth({ env: { HOME: dir, GH_TOKEN: 'gh-token-value' } })).toMatchObject({
      token: 'gh-token-value',
      tokenSource: 'env:GH_TOKEN',
    })
    expect(githubAuth({ env: { HOME: dir, GH_TOKEN: 'b', GITHUB_TOKEN: 'a' } })).toMatchObject({
      token: 'a',
      tokenSource: 'env:GITHUB_TOKEN',
    })
  })

  it('never sends the gh token to another API host', async () => {
    const dir = ghHome()
    const thread = await fetchThread('https://github.com/octo/renamed/issues/5', {
      env: { GITHUB_API_URL: emu.urls.github, HOME: dir },
    })
    expect(thread.metadata.authenticated).toBe(false)
    expect(githubRequests().every((r) => r.headers.authorization === undefined)).toBe(true)
  })
})
