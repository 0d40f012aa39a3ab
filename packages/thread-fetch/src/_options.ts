import type { Env } from '@search-layer/core'

/** Options shared by `fetchThread`, `extractRefsFromUrls` and `followChain`. */
export interface FetchThreadOptions {
  signal?: AbortSignal
  /** Where keys, base URLs and `SEARCH_LAYER_ALLOW_PRIVATE_HOSTS` are read; default `process.env`. */
  env?: Env
  /** Time allowed for the whole thread, every page and rate-limit wait included (ms). Default 60 000. */
  deadlineMs?: number
  /** Time allowed for one HTTP request (ms). Default 15 000. */
  timeoutMs?: number
  /** Most comments returned per list (issue comments, reviews, review comments, replies). Default 1000. */
  maxComments?: number
  /** Most timeline events read. Default 3000. */
  maxTimelineEvents?: number
  /** HTTP requests in flight per thread. Default 6. */
  concurrency?: number
  /** Largest response accepted (bytes). Default 5 MiB. */
  maxBytes?: number
  /** Characters of context kept around each reference. Default 80. */
  contextChars?: number
  /** Lift the SSRF address check for pages and site APIs (self-hosted use, tests). Default from `SEARCH_LAYER_ALLOW_PRIVATE_HOSTS=1`. */
  allowPrivateHosts?: boolean
  /** GitHub token; default `GITHUB_TOKEN`/`GH_TOKEN`, the search-layer config file, then `gh`'s `hosts.yml`. */
  githubToken?: string
  /** GitHub REST base URL; default `GITHUB_API_URL` or `https://api.github.com`. */
  githubBaseUrl?: string
  /** Home directory for config files (`~/.config/gh/hosts.yml`); default `HOME`. */
  homeDir?: string
}

export const DEFAULTS = {
  deadlineMs: 60_000,
  timeoutMs: 15_000,
  maxComments: 1000,
  maxTimelineEvents: 3000,
  concurrency: 6,
  maxBytes: 5 * 1024 * 1024,
  contextChars: 80,
} as const
