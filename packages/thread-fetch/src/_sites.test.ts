import { type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { InputError, ProviderError } from '@search-layer/core'
import { useEmulator } from '@search-layer/testkit/vitest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { extractRefsFromUrls, fetchThread, threadToMarkdown } from './index.js'

const emu = useEmulator({ resetEachTest: false })
let env: Record<string, string>

// Shapes as the real APIs return them (trimmed to the fields a thread reader uses plus some it ignores).
const hnItem = {
  id: 8863,
  created_at: '2007-04-04T19:16:40.000Z',
  created_at_i: 1175714200,
  type: 'story',
  author: 'dhouston',
  title: 'My YC app: Dropbox - Throw away your USB drive',
  url: 'http://www.getdropbox.com/u/2/screencast.html',
  text: null,
  points: 111,
  parent_id: null,
  story_id: 8863,
  options: [],
  children: [
    {
      id: 8952,
      created_at: '2007-04-05T01:04:08.000Z',
      type: 'comment',
      author: 'BrandonM',
      text: '<p>I have a few qualms with this app:</p><p>1. For a Linux user, you can already build such a system yourself quite trivially by getting an FTP account, mounting it locally with curlftpfs, and then using SVN or CVS on the mounted filesystem. See <a href="https://github.com/libfuse/sshfs/issues/12" rel="nofollow">https://github.com/libfuse/sshfs/issues/12</a> &amp; friends.</p>',
      points: null,
      parent_id: 8863,
      story_id: 8863,
      options: [],
      children: [
        {
          id: 8958,
          created_at: '2007-04-05T01:23:13.000Z',
          type: 'comment',
          author: 'dhouston',
          text: '<p>you are correct that this is a different user than what I&#x27;m targeting</p>',
          parent_id: 8952,
          story_id: 8863,
          options: [],
          children: [],
        },
        {
          id: 9001,
          created_at: '2007-04-05T02:00:00.000Z',
          type: 'comment',
          author: null,
          text: null,
          parent_id: 8952,
          story_id: 8863,
          options: [],
          children: [],
        },
      ],
    },
  ],
}

const redditThread = [
  {
    kind: 'Listing',
    data: {
      after: null,
      dist: 1,
      children: [
        {
          kind: 't3',
          data: {
            id: '1abcde',
            subreddit: 'node',
            title: 'undici fetch hangs when the server resets the connection',
            selftext: 'Repro in https://github.com/nodejs/undici/issues/1412 — anyone else?',
            author: 'throwaway_dev',
            created_utc: 1732000000,
            score: 42,
            num_comments: 3,
            is_self: true,
            url: 'https://www.reddit.com/r/node/comments/1abcde/undici_fetch_hangs/',
            link_flair_text: 'Help',
            locked: false,
          },
        },
      ],
    },
  },
  {
    kind: 'Listing',
    data: {
      children: [
        {
          kind: 't1',
          data: {
            id: 'c1',
            author: 'helper',
            body: 'Set `bodyTimeout`; it was fixed in nodejs/undici#1500 ("fixed in" is not a closing keyword).',
            created_utc: 1732000100,
            score: 10,
            permalink: '/r/node/comments/1abcde/undici_fetch_hangs/c1/',
            parent_id: 't3_1abcde',
            replies: {
              kind: 'Listing',
              data: {
                children: [
                  {
                    kind: 't1',
                    data: {
                      id: 'c2',
                      author: 'throwaway_dev',
                      body: 'That did it, thanks!',
                      created_utc: 1732000200,
                      score: 3,
                      permalink: '/r/node/comments/1abcde/undici_fetch_hangs/c2/',
                      parent_id: 't1_c1',
                      replies: '',
                    },
                  },
                ],
              },
            },
          },
        },
        { kind: 'more', data: { count: 1, children: ['c3'] } },
      ],
    },
  },
]

const v2exTopic = [
  {
    id: 1000001,
    title: 'Node.js 连接被重置后请求一直挂起',
    url: 'https://www.v2ex.com/t/1000001',
    content: '服务器重置连接后 fetch 不返回，参考 https://github.com/nodejs/undici/issues/1412',
    content_rendered:
      '<p>服务器重置连接后 fetch 不返回，参考 <a href="https://github.com/nodejs/undici/issues/1412" rel="nofollow">https://github.com/nodejs/undici/issues/1412</a></p>',
    replies: 2,
    created: 1732000000,
    member: { id: 1, username: 'livid' },
    node: { id: 12, name: 'nodejs', title: 'Node.js' },
  },
]
const v2exReplies = [
  {
    id: 1,
    content: '设置超时就好了',
    content_rendered: '设置超时就好了',
    created: 1732000100,
    member: { username: 'a' },
  },
  {
    id: 2,
    content: '同样的问题 +1',
    content_rendered: '同样的问题 +1<br />见 <a href="https://example.com/post?id=7&amp;lang=zh">这篇文章</a>',
    created: 1732000200,
    member: { username: 'b' },
  },
]

beforeAll(async () => {
  const json = (data: unknown) => ({ body: JSON.stringify(data), contentType: 'application/json; charset=utf-8' })
  emu.pages.set('/hn/items/8863', json(hnItem))
  emu.pages.set('/reddit/r/node/comments/1abcde.json', json(redditThread))
  emu.pages.set('/v2ex/topics/show.json', json(v2exTopic))
  emu.pages.set('/v2ex/replies/show.json', json(v2exReplies))
  emu.pages.set('/broken/items/1', { body: '{"id": "not a number"', contentType: 'application/json' })
  env = {
    ...emu.env,
    HN_API_URL: `${emu.urls.pages}/hn`,
    REDDIT_BASE_URL: `${emu.urls.pages}/reddit`,
    V2EX_API_URL: `${emu.urls.pages}/v2ex`,
  }
})

describe('other sites', () => {
  it('reads a Hacker News story with its nested comments (Algolia items API)', async () => {
    const thread = await fetchThread('https://news.ycombinator.com/item?id=8863', { env })
    expect(thread).toMatchObject({
      type: 'hackernews',
      title: 'My YC app: Dropbox - Throw away your USB drive',
      url: 'https://news.ycombinator.com/item?id=8863',
    })
    expect(thread.comments.map((c) => [c.author, c.depth])).toEqual([
      ['BrandonM', 0],
      ['dhouston', 1],
    ])
    expect(thread.comments[1]!.body).toBe("you are correct that this is a different user than what I'm targeting")
    expect(thread.refs.map((r) => r.key)).toEqual([
      'https://getdropbox.com/u/2/screencast.html',
      'github:libfuse/sshfs#12',
    ])
    expect(thread.metadata).toMatchObject({ points: 111, author: 'dhouston' })
  })

  it('reads a Reddit thread from its .json, replies nested', async () => {
    const thread = await fetchThread('https://old.reddit.com/r/node/comments/1abcde/undici_fetch_hangs/?sort=top', {
      env,
    })
    expect(thread).toMatchObject({
      type: 'reddit',
      labels: ['node', 'Help'],
      url: 'https://www.reddit.com/r/node/comments/1abcde/',
    })
    expect(thread.comments.map((c) => [c.id, c.depth, c.parentId])).toEqual([
      ['c1', 0, '1abcde'],
      ['c2', 1, 'c1'],
    ])
    expect(thread.metadata).toMatchObject({ unloadedComments: 1, score: 42 })
    expect(thread.refs.map((r) => [r.type, r.key])).toEqual([
      ['issue', 'github:nodejs/undici#1412'],
      ['issue', 'github:nodejs/undici#1500'],
    ])
  })

  it('reads a V2EX topic and its replies, HTML turned into text with links', async () => {
    const thread = await fetchThread('https://www.v2ex.com/t/1000001#reply2', { env })
    expect(thread).toMatchObject({ type: 'v2ex', title: 'Node.js 连接被重置后请求一直挂起', labels: ['Node.js'] })
    expect(thread.comments).toHaveLength(2)
    expect(thread.comments[1]!.body).toBe('同样的问题 +1\n见 [这篇文章](https://example.com/post?id=7&lang=zh)')
    expect(thread.refs.find((r) => r.type === 'url')).toMatchObject({
      text: '这篇文章',
      url: 'https://example.com/post?id=7&lang=zh',
    })
    expect(threadToMarkdown(thread)).toContain('**@b**')
  })

  it('rejects a malformed API answer with bad_response', async () => {
    await expect(
      fetchThread('https://news.ycombinator.com/item?id=1', {
        env: { ...env, HN_API_URL: `${emu.urls.pages}/broken` },
      }),
    ).rejects.toMatchObject({
      kind: 'bad_response',
      provider: 'hackernews',
    })
  })

  it('reads a generic page as readable markdown with its content links', async () => {
    const thread = await fetchThread(`${emu.urls.pages}/article`, { env })
    expect(thread.type).toBe('page')
    expect(thread.title.length).toBeGreaterThan(0)
    expect(thread.body.length).toBeGreaterThan(200)
    expect(thread.links.length).toBe(thread.refs.filter((r) => r.source === 'link').length)
  })
})

describe('safety of fetched URLs', () => {
  const noOptIn = () => ({ ...env, SEARCH_LAYER_ALLOW_PRIVATE_HOSTS: '' })

  it.each([
    ['a loopback site API', 'https://news.ycombinator.com/item?id=8863'],
    ['a loopback page', 'http://127.0.0.1:9/x'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/'],
  ])('refuses %s by default (config/blocked), naming the opt-in', async (_name, url) => {
    const error = await fetchThread(url, { env: noOptIn() }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProviderError)
    expect(error).toMatchObject({ kind: 'config', code: 'blocked', retryable: false })
    expect((error as Error).message).toContain('SEARCH_LAYER_ALLOW_PRIVATE_HOSTS')
  })

  it.each(['file:///etc/passwd', 'ftp://example.com/x', 'not a url'])('rejects %s with InputError', async (url) => {
    await expect(fetchThread(url, { env })).rejects.toBeInstanceOf(InputError)
  })
})

describe('extractRefsFromUrls', () => {
  it('fetches each distinct URL once with bounded concurrency and reports failures per URL', async () => {
    emu.reset()
    emu.latency('pages', 30)
    const urls = [
      'https://news.ycombinator.com/item?id=8863',
      'https://www.v2ex.com/t/1000001',
      'https://news.ycombinator.com/item?id=8863&utm_source=x',
      `${emu.urls.pages}/missing-page`,
    ]
    const results = await extractRefsFromUrls(urls, { env, urlConcurrency: 1 })
    expect(results.map((r) => r.url)).toEqual(urls)
    expect(results[0]!.refs.length).toBe(2)
    expect(results[2]!.refs).toEqual(results[0]!.refs)
    expect(results[3]!.error).toMatchObject({ kind: 'upstream', status: 404 })
    expect(emu.requests.filter((r) => r.path.endsWith('/hn/items/8863'))).toHaveLength(1)
    // One thread at a time; only V2EX's topic and replies calls overlap.
    expect(emu.maxInFlight('pages')).toBeLessThanOrEqual(2)
  })
})

describe('GitHub discussions (GraphQL)', () => {
  let server: Server
  let base: string
  const bodies: unknown[] = []
  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = ''
      req.on('data', (c) => {
        raw += c
      })
      req.on('end', () => {
        const body = JSON.parse(raw) as { variables: { after: string | null; number: number } }
        bodies.push({ auth: req.headers.authorization, ...body })
        res.setHeader('content-type', 'application/json')
        if (body.variables.number !== 7) {
          res.end(
            JSON.stringify({
              data: { repository: { discussion: null } },
              errors: [
                {
                  type: 'NOT_FOUND',
                  path: ['repository', 'discussion'],
                  message: 'Could not resolve to a Discussion with the number of 8.',
                },
              ],
            }),
          )
          return
        }
        const page = body.variables.after === null ? 1 : 2
        const comment = (id: string, text: string, isAnswer = false) => ({
          id,
          body: text,
          url: `https://github.com/octo/demo/discussions/7#discussioncomment-${id}`,
          createdAt: '2026-01-02T00:00:00Z',
          isAnswer,
          author: { login: 'monalisa' },
          replies: {
            totalCount: 1,
            nodes: [
              {
                id: `${id}-r`,
                body: `reply to ${id}, see #12`,
                url: null,
                createdAt: '2026-01-03T00:00:00Z',
                author: null,
              },
            ],
          },
        })
        res.end(
          JSON.stringify({
            data: {
              repository: {
                discussion: {
                  title: 'How do I set a deadline on every request?',
                  body: 'Asked in #5 too.',
                  url: 'https://github.com/octo/demo/discussions/7',
                  createdAt: '2026-01-01T00:00:00Z',
                  updatedAt: '2026-01-04T00:00:00Z',
                  closed: false,
                  locked: false,
                  isAnswered: true,
                  author: { login: 'octocat' },
                  category: { name: 'Q&A' },
                  labels: { nodes: [{ name: 'question' }] },
                  reactions: { totalCount: 3 },
                  comments: {
                    totalCount: 2,
                    pageInfo: { hasNextPage: page === 1, endCursor: page === 1 ? 'Y3Vyc29yOjE=' : null },
                    nodes: [
                      page === 1
                        ? comment('c1', 'Use AbortSignal.timeout')
                        : comment('c2', 'Fixed by octo/demo#9', true),
                    ],
                  },
                },
              },
            },
          }),
        )
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('reads every comment page and reply through GraphQL when a token is present', async () => {
    const thread = await fetchThread('https://github.com/octo/demo/discussions/7', {
      env: { GITHUB_API_URL: base, GITHUB_TOKEN: 'ghs_discussiontoken0000000000000001' },
    })
    expect(thread).toMatchObject({
      type: 'github_discussion',
      state: 'open',
      labels: ['question'],
      title: 'How do I set a deadline on every request?',
    })
    expect(thread.comments.map((c) => [c.id, c.kind, c.depth])).toEqual([
      ['c1', 'comment', 0],
      ['c1-r', 'reply', 1],
      ['c2', 'comment', 0],
      ['c2-r', 'reply', 1],
    ])
    expect(thread.metadata).toMatchObject({ category: 'Q&A', answered: true, answerId: 'c2', commentCount: 2 })
    expect(thread.refs.map((r) => r.key)).toEqual(['github:octo/demo#5', 'github:octo/demo#12', 'github:octo/demo#9'])
    expect(bodies.at(-1)).toMatchObject({
      auth: 'Bearer ghs_discussiontoken0000000000000001',
      variables: { after: 'Y3Vyc29yOjE=' },
    })
  })

  it('maps a GraphQL NOT_FOUND to not_found', async () => {
    await expect(
      fetchThread('https://github.com/octo/demo/discussions/8', {
        env: { GITHUB_API_URL: base, GITHUB_TOKEN: 'ghs_x00000000000000000000000000000001' },
      }),
    ).rejects.toMatchObject({
      kind: 'upstream',
      code: 'not_found',
    })
  })
})
