import { ProviderError } from '@search-layer/core'
import { z } from 'zod'
import type { GithubTarget } from './_github-url.js'
import { ghGet, githubAuth, makeCtx } from './_github-client.js'
import { DEFAULTS, type FetchThreadOptions } from './_options.js'
import { readRefs } from './_read-refs.js'
import { mergeRefs } from './refs.js'
import type { Thread, ThreadComment } from './types.js'

const QUERY = `query($owner: String!, $name: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    discussion(number: $number) {
      title body url createdAt updatedAt closed locked isAnswered
      author { login }
      category { name }
      labels(first: 20) { nodes { name } }
      reactions { totalCount }
      comments(first: 100, after: $after) {
        totalCount
        pageInfo { hasNextPage endCursor }
        nodes {
          id body url createdAt isAnswer
          author { login }
          replies(first: 100) { totalCount nodes { id body url createdAt author { login } } }
        }
      }
    }
  }
}`

const Author = z.looseObject({ login: z.string() }).nullable().optional()
const Reply = z.looseObject({
  id: z.string(),
  body: z.string(),
  url: z.string().nullable().optional(),
  createdAt: z.string().nullable().optional(),
  author: Author,
})
const Comment = Reply.extend({
  isAnswer: z.boolean().nullable().optional(),
  replies: z.looseObject({ totalCount: z.number(), nodes: z.array(Reply) }).optional(),
})
const ResponseSchema = z.looseObject({
  data: z
    .looseObject({
      repository: z
        .looseObject({
          discussion: z
            .looseObject({
              title: z.string(),
              body: z.string(),
              url: z.string(),
              createdAt: z.string().nullable().optional(),
              updatedAt: z.string().nullable().optional(),
              closed: z.boolean().optional(),
              locked: z.boolean().optional(),
              isAnswered: z.boolean().nullable().optional(),
              author: Author,
              category: z.looseObject({ name: z.string() }).nullable().optional(),
              labels: z
                .looseObject({ nodes: z.array(z.looseObject({ name: z.string() })) })
                .nullable()
                .optional(),
              reactions: z.looseObject({ totalCount: z.number() }).optional(),
              comments: z.looseObject({
                totalCount: z.number(),
                pageInfo: z.looseObject({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
                nodes: z.array(Comment),
              }),
            })
            .nullable(),
        })
        .nullable(),
    })
    .nullable()
    .optional(),
  errors: z.array(z.looseObject({ type: z.string().optional(), message: z.string() })).optional(),
})

type GraphqlResponse = z.infer<typeof ResponseSchema>
type Discussion = NonNullable<NonNullable<NonNullable<GraphqlResponse['data']>['repository']>['discussion']>

/** The GraphQL endpoint beside a REST base: `api.github.com/graphql`, GHES `/api/v3` → `/api/graphql`. */
function graphqlUrl(baseUrl: string): string {
  return /\/api\/v3\/?$/.test(baseUrl)
    ? baseUrl.replace(/\/api\/v3\/?$/, '/api/graphql')
    : `${baseUrl.replace(/\/+$/, '')}/graphql`
}

/** Reads a GitHub discussion with all its comments and replies through GraphQL (needs a token). */
export async function fetchGithubDiscussion(
  target: GithubTarget,
  url: string,
  options: FetchThreadOptions,
): Promise<Thread> {
  const auth = githubAuth(options)
  const ctx = makeCtx(options, auth)
  const endpoint = graphqlUrl(ctx.baseUrl)
  const maxComments = Math.max(0, options.maxComments ?? DEFAULTS.maxComments)
  const contextChars = options.contextChars ?? DEFAULTS.contextChars
  const repo = `${target.owner}/${target.repo}`
  const comments: ThreadComment[] = []
  let discussion: Discussion | undefined
  let after: string | null = null
  let total = 0
  let answerId: string | undefined
  // Cursor pagination cannot be parallelised: each page names the next.
  for (;;) {
    const res: { data: GraphqlResponse } = await ghGet(ctx, endpoint, ResponseSchema, undefined, {
      query: QUERY,
      variables: { owner: target.owner, name: target.repo, number: target.number, after },
    })
    const errors = res.data.errors ?? []
    const d: Discussion | null | undefined = res.data.data?.repository?.discussion
    if (!d) {
      const notFound = errors.some((e) => e.type === 'NOT_FOUND') || errors.length === 0
      throw new ProviderError(
        notFound
          ? `GitHub has no discussion ${repo}#${target.number}: it is missing or private to this token`
          : `GitHub GraphQL error: ${errors.map((e) => e.message).join('; ')}`,
        {
          kind: notFound ? 'upstream' : 'bad_response',
          provider: 'github',
          code: notFound ? 'not_found' : 'graphql',
          retryable: false,
          secrets: [ctx.token],
        },
      )
    }
    discussion ??= d
    total = d.comments.totalCount
    for (const c of d.comments.nodes) {
      if (c.isAnswer) answerId = c.id
      comments.push({
        id: c.id,
        kind: 'comment',
        author: c.author?.login ?? null,
        body: c.body,
        createdAt: c.createdAt ?? null,
        ...(c.url && { url: c.url }),
        depth: 0,
      })
      for (const r of c.replies?.nodes ?? [])
        comments.push({
          id: r.id,
          kind: 'reply',
          author: r.author?.login ?? null,
          body: r.body,
          createdAt: r.createdAt ?? null,
          ...(r.url && { url: r.url }),
          depth: 1,
          parentId: c.id,
        })
    }
    if (!d.comments.pageInfo.hasNextPage || !d.comments.pageInfo.endCursor || comments.length >= maxComments) break
    after = d.comments.pageInfo.endCursor
  }
  if (!discussion)
    throw new ProviderError('GitHub returned no discussion', { kind: 'bad_response', provider: 'github' })
  const kept = comments.slice(0, maxComments)
  const found = await readRefs([
    { text: discussion.body, options: { repo, source: 'body', contextChars } },
    ...kept.map((c) => ({ text: c.body, options: { repo, source: `${c.kind}:${c.id}`, contextChars } })),
  ])
  return {
    url: discussion.url,
    type: 'github_discussion',
    title: discussion.title,
    body: discussion.body,
    state: discussion.closed ? 'closed' : 'open',
    labels: (discussion.labels?.nodes ?? []).map((l) => l.name),
    comments: kept,
    refs: mergeRefs(found).filter((r) => r.key !== `github:${repo.toLowerCase()}#${target.number}`),
    links: [],
    metadata: {
      repo,
      number: target.number,
      requestedUrl: url,
      author: discussion.author?.login ?? null,
      createdAt: discussion.createdAt ?? null,
      updatedAt: discussion.updatedAt ?? null,
      category: discussion.category?.name ?? null,
      answered: discussion.isAnswered ?? false,
      ...(answerId && { answerId }),
      commentCount: total,
      ...(comments.length > kept.length && {
        truncated: { comments: { returned: kept.length, cut: comments.length - kept.length } },
      }),
      requests: ctx.requests,
      authenticated: true,
    },
  }
}
