import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { extractRefs, findRefs, mergeRefs, timelineRefs } from './index.js'

// Real GitHub recordings, copied into the package with their licences (see test/fixtures/github/README.md).
const TESTDATA = fileURLToPath(new URL('../test/fixtures/github/', import.meta.url))
const readJson = (path: string): unknown => JSON.parse(readFileSync(TESTDATA + path, 'utf8'))

const cases = readJson('refs/issue-regex-cases.json') as { matches: string[]; nonMatches: string[] }

describe('issue-regex cases', () => {
  it.each(cases.matches)('%s is one issue reference, taken whole', (text) => {
    const refs = extractRefs(text)
    expect(refs).toHaveLength(1)
    expect(refs[0]).toMatchObject({ type: 'issue', text })
    expect(refs[0]!.number).toBe(Number(text.split('#')[1]))
  })

  it.each(cases.nonMatches)('%s is no reference', (text) => {
    expect(extractRefs(text)).toEqual([])
  })

  it.each(cases.matches)('%s is still found inside a sentence', (text) => {
    const refs = extractRefs(`See ${text}, thanks.`)
    expect(refs.map((r) => r.text)).toEqual([text])
  })
})

describe('extractRefs', () => {
  const repo = 'octo/demo'
  it.each([
    ['Duplicate of #17', 'duplicate', 'github:octo/demo#17'],
    ['duplicate of octo/other#3', 'duplicate', 'github:octo/other#3'],
    ['Fixes #45', 'fixes', 'github:octo/demo#45'],
    ['fixed: #45', 'fixes', 'github:octo/demo#45'],
    ['This closes #2', 'closes', 'github:octo/demo#2'],
    ['Resolves https://github.com/octo/demo/issues/3', 'resolves', 'github:octo/demo#3'],
    ['**Fixes** #4', 'fixes', 'github:octo/demo#4'],
    ['Related to #5', 'related', 'github:octo/demo#5'],
    ['see also octo/x#6', 'related', 'github:octo/x#6'],
    ['Probably caused by GH-9', 'issue', 'github:octo/demo#9'],
    ['https://github.com/octo/demo/pull/8/files', 'pr', 'github:octo/demo#8'],
    ['https://www.github.com/Octo/Demo/issues/7#issuecomment-1', 'issue', 'github:octo/demo#7'],
    [
      'https://github.com/octo/demo/commit/0123456789abcdef0123456789abcdef01234567',
      'commit',
      'github:octo/demo@0123456789abcdef0123456789abcdef01234567',
    ],
    ['https://github.com/octo/demo/pull/8/commits/abc1234def', 'commit', 'github:octo/demo@abc1234def'],
    ['https://github.com/octo/demo/compare/v1.0.0...v1.1.0', 'commit', 'github:octo/demo@v1.0.0...v1.1.0'],
    ['Bisected to a1b2c3d.', 'commit', 'github:octo/demo@a1b2c3d'],
    ['landed in octo/lib@deadbeef12', 'commit', 'github:octo/lib@deadbeef12'],
  ] as const)('%s → %s', (text, type, key) => {
    const refs = extractRefs(text, { repo })
    expect(refs).toHaveLength(1)
    expect(refs[0]).toMatchObject({ type, key })
  })

  it.each([
    ['a 24-hex ObjectId', 'id is **5808d7d6af1a1908247811eb** instead'],
    ['hex inside a word', 'the value0x1234abcd and abc1234def_x'],
    ['a number', 'timestamp 1389737171 here'],
    ['an all-letter hex word', 'the defaced facade'],
    ['a UUID', '91db836a-9995-11e2-94d1-b52a852e4e9c'],
    ['an HTML entity', 'a &#123; b'],
    ['a reference in inline code', 'run `git revert #12` or `a1b2c3d`'],
    ['a reference in a fenced block', '```\nFixes #12 at deadbee1\n```'],
    ['a heading', '# 1 Introduction'],
  ])('ignores %s', (_name, text) => {
    expect(extractRefs(text, { repo })).toEqual([])
  })

  it('only recognises bare SHAs and GH-N with a repository', () => {
    expect(extractRefs('Bisected to a1b2c3d and GH-9')).toEqual([])
  })

  it.each([
    [
      'http://localhost:8080/debug?trace=1&verbose=true (port 8080)',
      'http://localhost:8080/debug?trace=1&verbose=true',
    ],
    ['See https://example.com/a/b?x=1&y=2#frag.', 'https://example.com/a/b?x=1&y=2#frag'],
    [
      '(https://en.wikipedia.org/wiki/Rust_(programming_language))',
      'https://en.wikipedia.org/wiki/Rust_(programming_language)',
    ],
    ['"https://example.com/q?a=1",', 'https://example.com/q?a=1'],
    ['<https://example.com/auto/link>', 'https://example.com/auto/link'],
    ['[the docs](https://docs.github.com/en/rest "REST docs")', 'https://docs.github.com/en/rest'],
    ['https://example.com:8443/path/to?q=1;', 'https://example.com:8443/path/to?q=1'],
  ])('keeps the whole URL of %s', (text, url) => {
    const refs = extractRefs(text)
    expect(refs.map((r) => r.url)).toEqual([url])
  })

  it('uses the anchor text of markdown links and keeps context on both sides', () => {
    const text = `${'x '.repeat(100)}Docs say otherwise: [the timeline docs](https://docs.github.com/en/rest/issues/timeline). More text after.${' y'.repeat(100)}`
    const [ref] = extractRefs(text, { contextChars: 30 })
    expect(ref).toMatchObject({ type: 'url', text: 'the timeline docs' })
    expect(ref!.context).toMatch(/^….*Docs say otherwise.*More text after.*…$/)
    expect(ref!.context.length).toBeLessThan(30 * 2 + 90)
  })

  it('deduplicates by canonical key, the specific type and its context winning', () => {
    const refs = extractRefs(
      'See #12 and https://github.com/octo/demo/issues/12.\n\nLater: Fixes #12.\nhttps://www.example.com/a?utm_source=x and https://example.com/a/',
      { repo },
    )
    expect(refs).toHaveLength(2)
    expect(refs[0]).toMatchObject({ type: 'fixes', key: 'github:octo/demo#12', count: 3, text: '#12' })
    expect(refs[0]!.context).toContain('Fixes #12')
    expect(refs[1]).toMatchObject({ type: 'url', count: 2, url: 'https://www.example.com/a?utm_source=x' })
  })

  it('learns that #N is a pull request from a /pull/ URL', () => {
    const [ref] = extractRefs('#8 and https://github.com/octo/demo/pull/8', { repo })
    expect(ref).toMatchObject({ type: 'pr', url: 'https://github.com/octo/demo/pull/8', count: 2 })
  })
})

describe('real GitHub bodies (octokit.rb recordings)', () => {
  type Issue = { number: number; body: string | null; title: string }
  const issues = (
    readJson('octokit-rb/Octokit_Client_Issues/_list_issues/returns_issues_for_a_repository__0.json') as {
      body: Issue[]
    }
  ).body
  const byNumber = (n: number) => issues.find((i) => i.number === n)!
  const repo = 'sferik/rails_admin'

  it('"Fixes #2722" is a fixes reference', () => {
    expect(extractRefs(byNumber(2737).body!, { repo })).toMatchObject([
      {
        type: 'fixes',
        key: 'github:sferik/rails_admin#2722',
        url: 'https://github.com/sferik/rails_admin/issues/2722',
      },
    ])
  })

  it('a MongoDB id in bold is not a commit, and code blocks hold no references', () => {
    expect(extractRefs(byNumber(2746).body!, { repo })).toEqual([])
  })

  it('"Resolves #3204" in a commit-pulls recording', () => {
    const pulls = (
      readJson(
        'octokit-rb/Octokit_Client_CommitPulls/_commit_pulls/returns_a_list_of_all_pull_requests_associated_with_a_commit__0.json',
      ) as { body: Issue[] }
    ).body
    const refs = extractRefs(pulls[0]!.body!, { repo })
    expect(refs[0]).toMatchObject({ type: 'resolves', number: 3204 })
  })

  it('short SHAs in a PR checklist are commits; "[#407]" is an issue', () => {
    const pulls = (
      readJson('octokit-rb/Octokit_Client_PullRequests/_pull_requests/lists_all_pull_requests__0.json') as {
        body: Issue[]
      }
    ).body
    const pr = pulls.find((p) => p.body?.includes('8ce3fe2'))!
    const refs = extractRefs(pr.body!, { repo: 'octokit/octokit.rb' })
    const commits = refs.filter((r) => r.type === 'commit').map((r) => r.sha)
    expect(commits).toEqual(
      expect.arrayContaining(['8ce3fe2', '9a3273c', '667c03d', '466dd99d0f3385c5cf73e0e932f7e35c15ea5efe']),
    )
    expect(commits).not.toContain('1389737171')
    expect(refs.find((r) => r.key === 'github:octokit/octokit.rb#407')?.type).toBe('issue')
  })

  it('reference-style link definitions yield the URL', () => {
    const comments = (
      readJson('octokit-rb/Octokit_Client_Issues/_issue_comments/returns_comments_for_an_issue__0.json') as {
        body: { body: string }[]
      }
    ).body
    expect(extractRefs(comments[0]!.body, { repo: 'octokit/octokit.rb' })).toMatchObject([
      { type: 'url', url: 'https://github.com/ctshryock/octokit/tree/25-issue-comments-v3' },
    ])
  })

  // Every string body of the recordings listed in an octokit-rb INDEX.json under `root`.
  function recordedBodies(root: string): string[] {
    const read = (path: string): unknown => JSON.parse(readFileSync(join(root, path), 'utf8'))
    const bodies: string[] = []
    for (const entry of read('INDEX.json') as { file: string }[]) {
      const data = read(entry.file) as { body: unknown }
      for (const item of Array.isArray(data.body) ? data.body : [data.body]) {
        const body = (item as { body?: unknown } | null)?.body
        if (typeof body === 'string') bodies.push(body)
      }
    }
    return bodies
  }

  const expectUniqueKeys = (bodies: string[]) => {
    for (const body of bodies) {
      const refs = extractRefs(body, { repo: 'octokit/octokit.rb' })
      expect(new Set(refs.map((r) => r.key)).size).toBe(refs.length)
    }
  }

  it('never throws and yields unique keys on all 256 recorded bodies of the octokit.rb corpus', () => {
    const bodies = recordedBodies(join(TESTDATA, 'octokit-rb'))
    expect(bodies.length).toBe(256)
    expectUniqueKeys(bodies)
  })
})

describe('real timelines (PyGithub recordings)', () => {
  const body = (file: string) => (readJson(`pygithub/${file}`) as { body: unknown[] }).body

  it('maps cross-referenced events to cross_ref_pr with title and state', () => {
    const summary = timelineRefs(body('Issue.testGetTimeline__0.json'), { repo: 'PyGithub/PyGithub' })
    expect(summary.events).toBe(16)
    expect(summary.byType['cross-referenced']).toBe(1)
    expect(summary.refs).toContainEqual(
      expect.objectContaining({
        type: 'cross_ref_pr',
        key: 'github:pygithub/pygithub#857',
        url: 'https://github.com/PyGithub/PyGithub/pull/857',
        title: 'Adding new attributes to IssueEvent',
        source: 'timeline',
      }),
    )
    expect(summary.closedBy).toMatchObject({ actor: 'jacquev6' })
  })

  it('maps referenced/merged commits and committed messages of a PR timeline', () => {
    const summary = timelineRefs(body('PullRequest.testGetIssueTimeline__0.json'), { repo: 'PyGithub/PyGithub' })
    const refs = mergeRefs(summary.refs)
    expect(refs).toContainEqual(
      expect.objectContaining({ type: 'commit', sha: '688208b1a5a074871d0e9376119556897439697d' }),
    )
    expect(refs).toContainEqual(
      expect.objectContaining({ type: 'commit', sha: '4aadfff21cdd2d2566b0e4bd7309c233b5f4ae23' }),
    )
    expect(refs).toContainEqual(expect.objectContaining({ type: 'cross_ref_pr', number: 670 }))
    expect(summary.mergeCommit).toBe('688208b1a5a074871d0e9376119556897439697d')
  })

  it('reads every one of the 27 recorded event types without throwing', () => {
    const events = Array.from(
      { length: 28 },
      (_, i) => (readJson(`pygithub/IssueEvent.setUp__${i}.json`) as { body: unknown }).body,
    )
    const summary = timelineRefs(events, { repo: 'PyGithub/PyGithub' })
    expect(summary.markedDuplicate).toBe(false)
    expect(Object.keys(summary.byType).length).toBeGreaterThan(20)
    expect(summary.refs.some((r) => r.sha === 'ed866fc43833802ab553e5ff8581c81bb00dd433')).toBe(true)
  })
})

describe('properties', () => {
  const textArb = fc.oneof(
    fc.string({ maxLength: 300 }),
    fc
      .array(
        fc.constantFrom(
          '#12',
          'Fixes ',
          'octo/demo#3',
          'GH-4',
          ' ',
          '\n',
          'https://github.com/a/b/pull/9',
          'a1b2c3d',
          '`',
          '```',
          '[x](https://e.com/(y))',
          '<https://x.y/z>',
          '.',
          ')',
          'Duplicate of ',
        ),
        { maxLength: 40 },
      )
      .map((parts) => parts.join('')),
  )

  it('never throws, keys are unique, every ref has a known type and a count ≥ 1', () => {
    fc.assert(
      fc.property(textArb, fc.option(fc.constantFrom('octo/demo', 'a/b'), { nil: undefined }), (text, repo) => {
        const refs = extractRefs(text, { repo })
        expect(new Set(refs.map((r) => r.key)).size).toBe(refs.length)
        for (const r of refs) expect(r.count).toBeGreaterThanOrEqual(1)
      }),
    )
  })

  it('merging is idempotent and keeps the total count', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const all = findRefs(text, { repo: 'octo/demo' })
        const once = mergeRefs(all)
        expect(mergeRefs(once)).toEqual(once)
        expect(once.reduce((n, r) => n + r.count, 0)).toBe(all.length)
      }),
    )
  })
})
