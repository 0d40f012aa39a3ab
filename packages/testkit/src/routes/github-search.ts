import type { Reply, RouteContext } from '../_types.js'
import { hashInt } from '../_util.js'
import { type RankedDoc, corpusFor, snippet } from '../corpus.js'

// NOTE(github): search has its own rate limit (`x-ratelimit-resource: search`): 30 requests a minute with a token,
// 10 without. Qualifiers ride inside `q`. https://docs.github.com/rest/search/search
const LANGUAGES = ['Rust', 'TypeScript', 'Go', 'Python', 'C++', 'JavaScript', null]
const QUALIFIER =
  /(?:^|\s)(-?)(is|in|language|pushed|updated|created|repo|user|org|stars|state|label|sort):("[^"]*"|\S+)/g

/** The search rate-limit headers for a minute window. */
export function searchRateHeaders(authed: boolean, ctx: RouteContext, remaining?: number): Record<string, string> {
  const limit = authed ? 30 : 10
  return {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining ?? limit - 1),
    'x-ratelimit-used': String(limit - (remaining ?? limit - 1)),
    'x-ratelimit-reset': String(Math.floor(ctx.now.getTime() / 1000) + 60),
    'x-ratelimit-resource': 'search',
  }
}

// `pushed:>=2026-01-01`, `updated:2026-01-01..2026-02-01` → bounds on the document dates.
function dateBounds(value: string): { after?: Date; before?: Date } | null {
  const range = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/.exec(value)
  if (range) return { after: new Date(`${range[1]}T00:00:00Z`), before: new Date(`${range[2]}T23:59:59Z`) }
  const m = /^(>=|>|<=|<)?(\d{4}-\d{2}-\d{2})$/.exec(value)
  if (!m) return null
  const at = new Date(`${m[2]}T00:00:00Z`)
  return m[1]?.startsWith('<') ? { before: at } : { after: at }
}

function repoOf(doc: RankedDoc): { owner: string; name: string } {
  const u = new URL(doc.url)
  const parts = u.pathname.split('/').filter(Boolean)
  if (u.hostname === 'github.com' && parts.length >= 2) return { owner: parts[0]!, name: parts[1]! }
  const owner = u.hostname.replace(/^www\./, '').split('.')[0]!
  const name = (parts.at(-1) ?? owner).replace(/\.[a-z]+$/i, '').slice(0, 40) || owner
  return { owner, name }
}

const iso = (value: string) => value.replace(/\.\d{3}Z$/, 'Z')

function repository(doc: RankedDoc, query: string, api: string) {
  const { owner, name } = repoOf(doc)
  const id = 100_000 + (hashInt(`${owner}/${name}`) % 800_000_000)
  return {
    id,
    node_id: `R_kgDO${id.toString(36).toUpperCase()}`,
    name,
    full_name: `${owner}/${name}`,
    private: false,
    owner: {
      login: owner,
      id: hashInt(owner) % 9_000_000,
      type: 'Organization',
      html_url: `https://github.com/${owner}`,
    },
    html_url: `https://github.com/${owner}/${name}`,
    description: doc.generated && hashInt(doc.url) % 5 === 0 ? null : snippet(doc, query, 200),
    fork: false,
    url: `${api}/repos/${owner}/${name}`,
    created_at: '2019-04-02T08:11:52Z',
    updated_at: iso(doc.publishedAt),
    pushed_at: iso(doc.publishedAt),
    homepage: doc.url.includes('github.com') ? null : doc.url,
    size: hashInt(doc.text) % 500_000,
    stargazers_count: hashInt(`stars\u0000${doc.url}`) % 90_000,
    watchers_count: hashInt(`stars\u0000${doc.url}`) % 90_000,
    language: LANGUAGES[hashInt(`lang\u0000${doc.url}`) % LANGUAGES.length],
    forks_count: hashInt(`forks\u0000${doc.url}`) % 9_000,
    archived: false,
    open_issues_count: hashInt(`issues\u0000${doc.url}`) % 700,
    license: { key: 'mit', name: 'MIT License', spdx_id: 'MIT' },
    topics: doc.title
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 3)
      .slice(0, 3),
    visibility: 'public',
    default_branch: 'main',
    score: 1,
  }
}

function issue(doc: RankedDoc, query: string, api: string) {
  const { owner, name } = repoOf(doc)
  const number = 1 + (hashInt(`num\u0000${doc.url}`) % 9_000)
  const closed = hashInt(`state\u0000${doc.url}`) % 3 === 0
  return {
    url: `${api}/repos/${owner}/${name}/issues/${number}`,
    repository_url: `${api}/repos/${owner}/${name}`,
    html_url: `https://github.com/${owner}/${name}/issues/${number}`,
    id: 2_000_000_000 + (hashInt(doc.url) % 100_000_000),
    number,
    title: `${doc.title.split(/\s+[-|:]\s+/)[0]} fails after upgrade`,
    user: { login: doc.author?.replace(/\W+/g, '-') ?? 'octocat', type: 'User' },
    labels: [{ name: closed ? 'bug' : 'needs-triage', color: 'd73a4a' }],
    state: closed ? 'closed' : 'open',
    locked: false,
    comments: hashInt(`comments\u0000${doc.url}`) % 60,
    created_at: iso(doc.publishedAt),
    updated_at: iso(doc.publishedAt),
    closed_at: closed ? iso(doc.publishedAt) : null,
    author_association: 'NONE',
    body: `${snippet(doc, query, 300)}\r\n\r\n### Steps to reproduce\r\n1. upgrade\r\n2. run \`cargo test\`\r\n\r\nSee <https://example.com/log> &amp; logs.`,
    reactions: { total_count: hashInt(doc.text) % 40 },
    state_reason: closed ? 'completed' : null,
    score: 1,
  }
}

/** `GET /search/repositories` and `/search/issues`: `{total_count, incomplete_results, items}`. */
export function githubSearch(ctx: RouteContext, kind: 'repositories' | 'issues', authed: boolean): Reply {
  const headers = searchRateHeaders(authed, ctx)
  const q = ctx.query.get('q')?.trim()
  if (!q)
    return {
      status: 422,
      headers,
      body: {
        message: 'Validation Failed',
        errors: [{ resource: 'Search', field: 'q', code: 'missing' }],
        documentation_url: 'https://docs.github.com/v3/search',
        status: '422',
      },
    }
  let bounds: { after?: Date; before?: Date } = {}
  for (const [, negated, key, value] of q.matchAll(QUALIFIER)) {
    if (negated || !['pushed', 'updated', 'created'].includes(key!)) continue
    // GitHub reads a malformed date qualifier as plain text; the emulator just ignores it.
    const parsed = dateBounds(value!)
    if (!parsed) continue
    bounds = { ...bounds, ...parsed }
  }
  const text = q.replace(QUALIFIER, ' ').trim()
  const perPage = Math.min(Math.max(Number(ctx.query.get('per_page') ?? 30) || 30, 1), 100)
  const docs = corpusFor(text, { count: perPage, now: ctx.now, ...bounds })
  const items = docs.map((doc) =>
    kind === 'repositories' ? repository(doc, text, ctx.baseUrl) : issue(doc, text, ctx.baseUrl),
  )
  return { status: 200, headers, body: { total_count: items.length * 37, incomplete_results: false, items } }
}
