import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { type Emulator, startEmulator } from '../index.js'

let emu: Emulator
beforeEach(async () => {
  emu ??= await startEmulator()
  emu.reset()
})
afterAll(() => emu?.close())

// biome-ignore lint/suspicious/noExplicitAny: test-only access into GitHub JSON
type Json = Record<string, any>
const gh = (path: string, init: RequestInit = {}) => fetch(`${emu.urls.github}${path}`, { redirect: 'manual', ...init })

function parseLink(header: string | null): Record<string, string> {
  const out: Record<string, string> = {}
  for (const part of header?.split(', ') ?? []) {
    const m = /^<([^>]+)>; rel="(\w+)"$/.exec(part)
    if (m) out[m[2]!] = m[1]!
  }
  return out
}

describe('github issues', () => {
  it('serves octo/demo#1 with real field shapes and rate-limit headers', async () => {
    const res = await gh('/repos/octo/demo/issues/1')
    expect(res.status).toBe(200)
    expect(res.headers.get('x-ratelimit-limit')).toBe('60')
    expect(res.headers.get('x-ratelimit-resource')).toBe('core')
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(1_700_000_000)
    const issue = (await res.json()) as Json
    expect(issue).toMatchObject({
      url: `${emu.urls.github}/repos/octo/demo/issues/1`,
      html_url: 'https://github.com/octo/demo/issues/1',
      number: 1,
      user: { login: expect.any(String) },
      labels: [{ name: 'bug' }, { name: 'needs-triage' }, { name: 'area/networking' }],
      state: 'closed',
      state_reason: 'completed',
      comments: 150,
      reactions: { total_count: expect.any(Number), '+1': expect.any(Number) },
    })
    expect(issue.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
    expect(issue.pull_request).toBeUndefined()
  })

  it('counts the rate limit down and reports 5000 with a token', async () => {
    const a = await gh('/repos/octo/demo/issues/1', { headers: { authorization: `Bearer ${emu.keys.github}` } })
    const b = await gh('/repos/octo/demo/issues/1', { headers: { authorization: `token ${emu.keys.github}` } })
    expect(a.headers.get('x-ratelimit-limit')).toBe('5000')
    expect(Number(b.headers.get('x-ratelimit-remaining'))).toBe(Number(a.headers.get('x-ratelimit-remaining')) - 1)
  })

  it('wrong token → 401 Bad credentials', async () => {
    const res = await gh('/repos/octo/demo/issues/1', { headers: { authorization: 'Bearer ghp_wrong' } })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({
      message: 'Bad credentials',
      documentation_url: 'https://docs.github.com/rest',
      status: '401',
    })
  })

  it.each([
    ['/repos/octo/demo/issues/3', 410, 'This issue was deleted'],
    ['/repos/octo/demo/issues/404', 404, 'Not Found'],
    ['/repos/octo/demo/issues/3/comments', 410, 'This issue was deleted'],
    ['/repos/octo/demo/pulls/1', 404, 'Not Found'],
    ['/repos/octo/demo/unknown', 404, 'Not Found'],
  ])('%s → %i', async (path, status, message) => {
    const res = await gh(path)
    expect(res.status).toBe(status)
    expect(await res.json()).toMatchObject({
      message,
      status: String(status),
      documentation_url: expect.stringContaining('https://docs.github.com/'),
    })
  })

  it('a transferred issue answers 301 with Location to the new API URL, which resolves', async () => {
    const res = await gh('/repos/octo/demo/issues/5')
    expect(res.status).toBe(301)
    const location = res.headers.get('location')
    expect(location).toBe(`${emu.urls.github}/repos/octo/renamed/issues/5`)
    expect(await res.json()).toMatchObject({ message: 'Moved Permanently', url: location })
    const moved = (await (await fetch(location!)).json()) as Json
    expect(moved).toMatchObject({ number: 5, html_url: 'https://github.com/octo/renamed/issues/5' })
    const sub = await gh('/repos/octo/demo/issues/5/comments?per_page=2')
    expect(sub.headers.get('location')).toBe(`${emu.urls.github}/repos/octo/renamed/issues/5/comments?per_page=2`)
  })

  it('paginates with only rel="next", pointing at another server, when an issue asks for it', async () => {
    emu.github.addIssue({
      owner: 'octo',
      repo: 'paged',
      number: 1,
      comments: 120,
      paging: { rels: 'next', linkBase: 'http://127.0.0.1:9/github' },
    })
    const first = await gh('/repos/octo/paged/issues/1/comments?per_page=50&page=2')
    const links = parseLink(first.headers.get('link'))
    expect(Object.keys(links)).toEqual(['next'])
    expect(links.next).toBe('http://127.0.0.1:9/github/repos/octo/paged/issues/1/comments?per_page=50&page=3')
  })

  it('paginates 150 comments with Link next/last/prev/first', async () => {
    const first = await gh('/repos/octo/demo/issues/1/comments?per_page=50')
    const links1 = parseLink(first.headers.get('link'))
    expect(Object.keys(links1).sort()).toEqual(['last', 'next'])
    expect(new URL(links1.next!).searchParams.get('page')).toBe('2')
    expect(new URL(links1.last!).searchParams.get('page')).toBe('3')
    const second = await fetch(links1.next!)
    expect(Object.keys(parseLink(second.headers.get('link'))).sort()).toEqual(['first', 'last', 'next', 'prev'])
    const third = await fetch(parseLink(second.headers.get('link')).next!)
    expect(Object.keys(parseLink(third.headers.get('link'))).sort()).toEqual(['first', 'prev'])
    const all = [
      ...((await first.json()) as Json[]),
      ...((await second.json()) as Json[]),
      ...((await third.json()) as Json[]),
    ]
    expect(all).toHaveLength(150)
    expect(new Set(all.map((c) => c.id)).size).toBe(150)
    const bodies = all.map((c) => c.body).join('\n')
    for (const ref of [
      'Fixes #45',
      'Duplicate of #17',
      'octo/other#12',
      'GH-9',
      'https://github.com/octo/demo/pull/8',
      'http://localhost:8080/debug?trace=1&verbose=true',
      '](https://docs.github.com/',
    ]) {
      expect(bodies).toContain(ref)
    }
    expect(bodies).toMatch(/\b[0-9a-f]{40}\b/)
  })

  it('caps per_page at 100 and defaults to 30', async () => {
    expect(((await (await gh('/repos/octo/demo/issues/1/comments?per_page=500')).json()) as Json[]).length).toBe(100)
    expect(((await (await gh('/repos/octo/demo/issues/1/comments')).json()) as Json[]).length).toBe(30)
  })

  it('serves a ~40-event timeline with cross-references, commit references and duplicates', async () => {
    const res = await gh('/repos/octo/demo/issues/1/timeline?per_page=100')
    const events = (await res.json()) as Json[]
    expect(events).toHaveLength(40)
    expect(res.headers.get('link')).toBeNull()
    const kinds = new Set(events.map((e) => e.event))
    for (const k of ['cross-referenced', 'referenced', 'marked_as_duplicate', 'closed', 'labeled', 'commented'])
      expect(kinds).toContain(k)
    const xref = events.find((e) => e.event === 'cross-referenced')!
    expect(xref.source).toMatchObject({
      type: 'issue',
      issue: {
        number: expect.any(Number),
        html_url: expect.stringMatching(/^https:\/\/github\.com\//),
        repository: { full_name: expect.any(String) },
      },
    })
    expect(events.find((e) => e.event === 'referenced')!.commit_id).toMatch(/^[0-9a-f]{40}$/)
    const paged = await gh('/repos/octo/demo/issues/1/timeline?per_page=15&page=2')
    expect(parseLink(paged.headers.get('link')).last).toContain('page=3')
  })
})

describe('github pulls', () => {
  it('serves a merged PR as an issue and as a pull', async () => {
    const issue = (await (await gh('/repos/octo/demo/issues/2')).json()) as Json
    expect(issue.pull_request).toMatchObject({
      html_url: 'https://github.com/octo/demo/pull/2',
      merged_at: expect.any(String),
    })
    const pull = (await (await gh('/repos/octo/demo/pulls/2')).json()) as Json
    expect(pull).toMatchObject({
      number: 2,
      merged: true,
      state: 'closed',
      merge_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      head: { ref: 'feature-2' },
      base: { ref: 'main' },
    })
  })

  it('lists reviews and inline review comments', async () => {
    const reviews = (await (await gh('/repos/octo/demo/pulls/2/reviews')).json()) as Json[]
    expect(reviews.map((r) => r.state)).toEqual(['COMMENTED', 'CHANGES_REQUESTED', 'APPROVED'])
    expect(reviews[0]).toMatchObject({
      user: { login: 'monalisa' },
      submitted_at: expect.any(String),
      html_url: expect.stringContaining('#pullrequestreview-'),
    })
    const comments = (await (await gh('/repos/octo/demo/pulls/2/comments')).json()) as Json[]
    expect(comments).toHaveLength(3)
    expect(comments[0]).toMatchObject({
      path: 'src/http.ts',
      line: 42,
      diff_hunk: expect.stringMatching(/^@@ /),
      pull_request_review_id: reviews[0]!.id,
    })
  })
})

describe('github.addIssue', () => {
  it('serves added issues with explicit comments, raw timeline and gone/moved states', async () => {
    emu.github.addIssue({
      owner: 'acme',
      repo: 'widgets',
      number: 7,
      title: 'Widget breaks',
      comments: [{ body: 'me too', user: 'alice' }],
      timeline: [{ event: 'labeled', label: { name: 'p1' } }],
    })
    emu.github.addIssue({ owner: 'acme', repo: 'widgets', number: 8, gone: 404 })
    const issue = (await (await gh('/repos/acme/widgets/issues/7')).json()) as Json
    expect(issue).toMatchObject({ title: 'Widget breaks', comments: 1, state: 'open' })
    expect(await (await gh('/repos/acme/widgets/issues/7/comments')).json()).toMatchObject([
      { body: 'me too', user: { login: 'alice' } },
    ])
    expect(await (await gh('/repos/acme/widgets/issues/7/timeline')).json()).toEqual([
      { event: 'labeled', label: { name: 'p1' } },
    ])
    expect((await gh('/repos/acme/widgets/issues/8')).status).toBe(404)
  })

  it('matches owner and repo case-insensitively, like GitHub', async () => {
    expect((await gh('/repos/Octo/Demo/issues/1')).status).toBe(200)
  })
})
