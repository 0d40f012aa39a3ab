/** A GitHub issue, pull request or discussion named by a github.com URL. */
export interface GithubTarget {
  owner: string
  repo: string
  kind: 'issue' | 'pull' | 'discussion'
  number: number
}

const GITHUB_HOSTS = new Set(['github.com', 'www.github.com'])

/** Parses `https://(www.)github.com/o/r/(issues|pull|discussions)/N[/…][#…]`; undefined for anything else. */
export function parseGithubUrl(url: string): GithubTarget | undefined {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return undefined
  }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || !GITHUB_HOSTS.has(u.hostname.toLowerCase()))
    return undefined
  const m = /^\/([A-Za-z0-9-]{1,39})\/([\w.-]{1,100})\/(issues|pull|pulls|discussions)\/([1-9]\d{0,9})(?:\/.*)?$/.exec(
    withoutTrailingSlashes(u.pathname),
  )
  if (!m) return undefined
  const kind = m[3] === 'issues' ? 'issue' : m[3] === 'discussions' ? 'discussion' : 'pull'
  return { owner: m[1]!, repo: m[2]!, kind, number: Number(m[4]) }
}

/** The web host whose `gh` token belongs to an API base URL: `api.github.com` → `github.com`, GHES `/api/v3` → its host. */
export function webHostOf(apiBaseUrl: string): string | undefined {
  try {
    const u = new URL(apiBaseUrl)
    if (u.hostname === 'api.github.com') return 'github.com'
    if (/^\/api\/v3\/?$/.test(u.pathname)) return u.hostname
    return undefined
  } catch {
    return undefined
  }
}

// Not /\/+$/: from every slash of a long run that does not end the path, it would re-read the run.
function withoutTrailingSlashes(path: string): string {
  let end = path.length
  while (end > 0 && path[end - 1] === '/') end--
  return path.slice(0, end)
}
