import { ProviderError } from '@search-layer/core'
import { timeoutSignal } from '@search-layer/core/http'
import { safeFetch } from '@search-layer/page-fetch'
import { z } from 'zod'
import { toThreadError } from './_errors.js'
import { htmlToText } from './_html-text.js'
import { DEFAULTS, type FetchThreadOptions } from './_options.js'
import { readRefs } from './_read-refs.js'
import { mergeRefs } from './refs.js'
import type { Thread, ThreadComment } from './types.js'

const HN_API = 'https://hn.algolia.com/api/v1'
const REDDIT_BASE = 'https://www.reddit.com'
const V2EX_API = 'https://www.v2ex.com/api'

/** A thread on a site with an API: Hacker News, Reddit or V2EX. */
export type SiteTarget =
  | { site: 'hackernews'; id: number }
  | { site: 'reddit'; path: string }
  | { site: 'v2ex'; id: number }

/** Recognises HN items, Reddit comment threads and V2EX topics by URL. */
export function parseSiteUrl(url: string): SiteTarget | undefined {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return undefined
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return undefined
  const host = u.hostname.toLowerCase()
  if (host === 'news.ycombinator.com' && u.pathname === '/item') {
    const id = Number(u.searchParams.get('id'))
    return Number.isInteger(id) && id > 0 ? { site: 'hackernews', id } : undefined
  }
  if (/^(?:www\.|old\.|new\.|np\.)?reddit\.com$/.test(host)) {
    const m = /^(\/r\/[^/]+\/comments\/[a-z0-9]+)(?:\/[^/]*)?\/?$/i.exec(u.pathname)
    return m ? { site: 'reddit', path: m[1]! } : undefined
  }
  if (host === 'v2ex.com' || host === 'www.v2ex.com') {
    const m = /^\/t\/(\d+)/.exec(u.pathname)
    return m ? { site: 'v2ex', id: Number(m[1]) } : undefined
  }
  return undefined
}

async function getJson<T>(
  url: string,
  schema: z.ZodType<T>,
  service: string,
  options: FetchThreadOptions,
  signal: AbortSignal,
): Promise<T> {
  let text: string
  try {
    const res = await safeFetch(url, {
      signal,
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
      maxBytes: options.maxBytes ?? DEFAULTS.maxBytes,
      allowedContentTypes: ['application/json', 'application/*+json', 'text/plain', 'text/javascript'],
      headers: { accept: 'application/json', 'user-agent': 'search-layer-thread-fetch/0.1' },
      ...(options.allowPrivateHosts !== undefined && { allowPrivateHosts: options.allowPrivateHosts }),
      ...(options.env && { env: options.env as Record<string, string | undefined> }),
    })
    text = res.text
  } catch (error) {
    throw toThreadError(error, service)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new ProviderError(`${service} returned malformed JSON (${text.length} bytes)`, {
      kind: 'bad_response',
      provider: service,
    })
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) {
    const where = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    throw new ProviderError(`${service} response did not have the expected shape (${where.join('; ')})`, {
      kind: 'bad_response',
      provider: service,
    })
  }
  return parsed.data
}

function base(env: FetchThreadOptions['env'], name: string, fallback: string): string {
  return ((env ?? process.env)[name] || fallback).replace(/\/+$/, '')
}

interface HnItem {
  id: number
  type?: string | null
  author?: string | null
  title?: string | null
  url?: string | null
  text?: string | null
  points?: number | null
  created_at?: string | null
  parent_id?: number | null
  children?: HnItem[]
}
const HnItemSchema: z.ZodType<HnItem> = z.lazy(() =>
  z.looseObject({
    id: z.number(),
    type: z.string().nullable().optional(),
    author: z.string().nullable().optional(),
    title: z.string().nullable().optional(),
    url: z.string().nullable().optional(),
    text: z.string().nullable().optional(),
    points: z.number().nullable().optional(),
    created_at: z.string().nullable().optional(),
    parent_id: z.number().nullable().optional(),
    children: z.array(HnItemSchema).optional(),
  }),
)

type RedditListing = { kind: string; data: { children: { kind: string; data: Record<string, unknown> }[] } }
const RedditListingSchema: z.ZodType<RedditListing> = z.looseObject({
  kind: z.string(),
  data: z.looseObject({
    children: z.array(z.looseObject({ kind: z.string(), data: z.record(z.string(), z.unknown()) })),
  }),
})

const V2exMember = z.looseObject({ username: z.string() }).nullable().optional()
const V2exTopicSchema = z.array(
  z.looseObject({
    id: z.number(),
    title: z.string(),
    url: z.string().optional(),
    content: z.string().nullable().optional(),
    content_rendered: z.string().nullable().optional(),
    created: z.number().optional(),
    replies: z.number().optional(),
    member: V2exMember,
    node: z.looseObject({ name: z.string(), title: z.string().optional() }).nullable().optional(),
  }),
)
const V2exRepliesSchema = z.array(
  z.looseObject({
    id: z.number(),
    content: z.string().nullable().optional(),
    content_rendered: z.string().nullable().optional(),
    created: z.number().optional(),
    member: V2exMember,
  }),
)

const isoFromUnix = (s: unknown) =>
  typeof s === 'number' && Number.isFinite(s) ? new Date(s * 1000).toISOString() : null

type SiteThread = Omit<Thread, 'refs' | 'links'> & { links?: Thread['links'] }

/** An HN item with its comment tree, flattened depth-first (deleted and dead comments left out). */
async function fetchHackerNews(
  target: Extract<SiteTarget, { site: 'hackernews' }>,
  options: FetchThreadOptions,
  signal: AbortSignal,
  maxComments: number,
): Promise<SiteThread> {
  const item = await getJson(
    `${base(options.env, 'HN_API_URL', HN_API)}/items/${target.id}`,
    HnItemSchema,
    'hackernews',
    options,
    signal,
  )
  const all: ThreadComment[] = []
  const walk = (children: HnItem[] | undefined, depth: number, parent: number) => {
    for (const c of children ?? []) {
      // Deleted and dead comments come back with no author and no text.
      if (c.text || c.author)
        all.push({
          id: String(c.id),
          kind: 'reply',
          author: c.author ?? null,
          body: htmlToText(c.text ?? ''),
          createdAt: c.created_at ?? null,
          url: `https://news.ycombinator.com/item?id=${c.id}`,
          depth,
          parentId: String(parent),
        })
      walk(c.children, depth + 1, c.id)
    }
  }
  walk(item.children, 0, item.id)
  const body = [item.url ? `<${item.url}>` : '', htmlToText(item.text ?? '')].filter(Boolean).join('\n\n')
  return {
    url: `https://news.ycombinator.com/item?id=${item.id}`,
    type: 'hackernews',
    title: item.title ?? '',
    body,
    state: null,
    labels: item.type ? [item.type] : [],
    comments: all.slice(0, maxComments),
    metadata: {
      id: item.id,
      author: item.author ?? null,
      createdAt: item.created_at ?? null,
      points: item.points ?? null,
      storyUrl: item.url ?? null,
      commentCount: all.length,
      ...(all.length > maxComments && {
        truncated: { comments: { returned: maxComments, cut: all.length - maxComments } },
      }),
    },
  }
}

/** A Reddit post with its comments, depth-first; `more` stubs counted as unloaded comments. */
async function fetchReddit(
  target: Extract<SiteTarget, { site: 'reddit' }>,
  options: FetchThreadOptions,
  signal: AbortSignal,
  maxComments: number,
): Promise<SiteThread> {
  const listings = await getJson(
    `${base(options.env, 'REDDIT_BASE_URL', REDDIT_BASE)}${target.path}.json?raw_json=1&limit=500`,
    z.array(RedditListingSchema).min(1),
    'reddit',
    options,
    signal,
  )
  const post = listings[0]!.data.children.find((c) => c.kind === 't3')?.data ?? {}
  const all: ThreadComment[] = []
  let more = 0
  const walk = (children: RedditListing['data']['children'], depth: number) => {
    for (const c of children) {
      if (c.kind === 'more') {
        more += typeof c.data.count === 'number' ? c.data.count : 0
        continue
      }
      if (c.kind !== 't1') continue
      const d = c.data
      all.push({
        id: String(d.id),
        kind: 'reply',
        author: typeof d.author === 'string' ? d.author : null,
        body: typeof d.body === 'string' ? d.body : '',
        createdAt: isoFromUnix(d.created_utc),
        ...(typeof d.permalink === 'string' && { url: `https://www.reddit.com${d.permalink}` }),
        depth,
        ...(typeof d.parent_id === 'string' && { parentId: d.parent_id.replace(/^t\d_/, '') }),
        ...(typeof d.score === 'number' && { score: d.score }),
      })
      const replies = RedditListingSchema.safeParse(d.replies)
      if (replies.success) walk(replies.data.data.children, depth + 1)
    }
  }
  walk(listings[1]?.data.children ?? [], 0)
  const str = (v: unknown) => (typeof v === 'string' ? v : '')
  const linkUrl = str(post.url)
  const isSelf = post.is_self === true
  return {
    url: `https://www.reddit.com${target.path}/`,
    type: 'reddit',
    title: str(post.title),
    body: [isSelf || !linkUrl ? '' : `<${linkUrl}>`, str(post.selftext)].filter(Boolean).join('\n\n'),
    state: post.locked === true ? 'locked' : null,
    labels: [str(post.subreddit), str(post.link_flair_text)].filter(Boolean),
    comments: all.slice(0, maxComments),
    metadata: {
      id: str(post.id),
      author: str(post.author) || null,
      createdAt: isoFromUnix(post.created_utc),
      score: typeof post.score === 'number' ? post.score : null,
      commentCount: typeof post.num_comments === 'number' ? post.num_comments : all.length,
      ...(more > 0 && { unloadedComments: more }),
      ...(all.length > maxComments && {
        truncated: { comments: { returned: maxComments, cut: all.length - maxComments } },
      }),
    },
  }
}

/** A V2EX topic and its replies (flat: V2EX has no reply tree). */
async function fetchV2ex(
  target: Extract<SiteTarget, { site: 'v2ex' }>,
  options: FetchThreadOptions,
  signal: AbortSignal,
  maxComments: number,
): Promise<SiteThread> {
  const api = base(options.env, 'V2EX_API_URL', V2EX_API)
  const [topics, replies] = await Promise.all([
    getJson(`${api}/topics/show.json?id=${target.id}`, V2exTopicSchema, 'v2ex', options, signal),
    getJson(`${api}/replies/show.json?topic_id=${target.id}`, V2exRepliesSchema, 'v2ex', options, signal),
  ])
  const topic = topics[0]
  if (!topic)
    throw new ProviderError(`v2ex has no topic ${target.id}`, {
      kind: 'upstream',
      provider: 'v2ex',
      code: 'not_found',
      status: 404,
      retryable: false,
    })
  const all: ThreadComment[] = replies.map((r) => ({
    id: String(r.id),
    kind: 'reply',
    author: r.member?.username ?? null,
    body: r.content_rendered ? htmlToText(r.content_rendered) : (r.content ?? ''),
    createdAt: isoFromUnix(r.created),
    url: `https://www.v2ex.com/t/${topic.id}#r_${r.id}`,
    depth: 0,
  }))
  return {
    url: `https://www.v2ex.com/t/${topic.id}`,
    type: 'v2ex',
    title: topic.title,
    body: topic.content_rendered ? htmlToText(topic.content_rendered) : (topic.content ?? ''),
    state: null,
    labels: topic.node ? [topic.node.title ?? topic.node.name] : [],
    comments: all.slice(0, maxComments),
    metadata: {
      id: topic.id,
      author: topic.member?.username ?? null,
      createdAt: isoFromUnix(topic.created),
      commentCount: topic.replies ?? all.length,
      ...(all.length > maxComments && {
        truncated: { comments: { returned: maxComments, cut: all.length - maxComments } },
      }),
    },
  }
}

/** Fetches an HN item, a Reddit thread or a V2EX topic through its JSON API (every request SSRF-checked). */
export async function fetchSiteThread(target: SiteTarget, url: string, options: FetchThreadOptions): Promise<Thread> {
  const signal = timeoutSignal(options.deadlineMs ?? DEFAULTS.deadlineMs, options.signal)
  const maxComments = Math.max(0, options.maxComments ?? DEFAULTS.maxComments)
  const contextChars = options.contextChars ?? DEFAULTS.contextChars
  const thread =
    target.site === 'hackernews'
      ? await fetchHackerNews(target, options, signal, maxComments)
      : target.site === 'reddit'
        ? await fetchReddit(target, options, signal, maxComments)
        : await fetchV2ex(target, options, signal, maxComments)
  const found = await readRefs([
    { text: thread.body, options: { source: 'body', contextChars } },
    ...thread.comments.map((c) => ({ text: c.body, options: { source: `comment:${c.id}`, contextChars } })),
  ])
  return {
    ...thread,
    refs: mergeRefs(found),
    links: thread.links ?? [],
    metadata: { ...thread.metadata, requestedUrl: url },
  }
}
