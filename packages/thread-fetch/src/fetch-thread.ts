import { InputError, canonicalUrl } from '@search-layer/core'
import { timeoutSignal } from '@search-layer/core/http'
import { fetchPage } from '@search-layer/page-fetch'
import { errorJson, toThreadError } from './_errors.js'
import { fetchGithubDiscussion } from './_github-discussion.js'
import { parseGithubUrl } from './_github-url.js'
import { githubAuth } from './_github-client.js'
import { fetchGithubIssue } from './_github-issue.js'
import { mapLimit } from './_limit.js'
import { DEFAULTS, type FetchThreadOptions } from './_options.js'
import { fetchSiteThread, parseSiteUrl } from './_sites.js'
import { mapYielding, readRefs } from './_read-refs.js'
import { linkRef, mergeRefs } from './refs.js'
import type { Ref, Thread, ThreadError } from './types.js'

export type { FetchThreadOptions } from './_options.js'

/**
 * Reads a whole thread behind a URL: GitHub issue/PR (REST) or discussion (GraphQL with a token, else the page),
 * Hacker News item, Reddit thread, V2EX topic, else a generic page as readable markdown, with typed references.
 * Rejects with `ProviderError` (`rate_limited`, `auth`, `upstream` with code `not_found`/`gone`, `config` with code
 * `blocked` for refused addresses, `timeout`, `network`, `bad_response`) or `InputError` for a URL it cannot read.
 */
export async function fetchThread(url: string, options: FetchThreadOptions = {}): Promise<Thread> {
  const trimmed = typeof url === 'string' ? url.trim() : ''
  let parsed: URL
  try {
    parsed = new URL(trimmed)
  } catch {
    throw new InputError(`Not a URL: ${JSON.stringify(trimmed.slice(0, 200))}; expected an http(s) URL.`, [
      { path: 'url', message: 'not a URL' },
    ])
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new InputError(`Only http(s) URLs can be fetched, got ${parsed.protocol}`, [
      { path: 'url', message: 'unsupported scheme' },
    ])
  const github = parseGithubUrl(trimmed)
  if (github?.kind === 'issue' || github?.kind === 'pull') return fetchGithubIssue(github, trimmed, options)
  if (github?.kind === 'discussion') {
    if (githubAuth(options).token) return fetchGithubDiscussion(github, trimmed, options)
    const page = await fetchGenericPage(trimmed, options)
    return {
      ...page,
      type: 'github_discussion',
      metadata: { ...page.metadata, via: 'page (no GitHub token for GraphQL)' },
    }
  }
  const site = parseSiteUrl(trimmed)
  if (site) return fetchSiteThread(site, trimmed, options)
  return fetchGenericPage(trimmed, options)
}

async function fetchGenericPage(url: string, options: FetchThreadOptions): Promise<Thread> {
  const signal = timeoutSignal(options.deadlineMs ?? DEFAULTS.deadlineMs, options.signal)
  let page: Awaited<ReturnType<typeof fetchPage>>
  try {
    page = await fetchPage(url, {
      signal,
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
      maxBytes: options.maxBytes ?? DEFAULTS.maxBytes,
      ...(options.allowPrivateHosts !== undefined && { allowPrivateHosts: options.allowPrivateHosts }),
      ...(options.env && { env: options.env as Record<string, string | undefined> }),
    })
  } catch (error) {
    throw toThreadError(error, 'page')
  }
  const contextChars = options.contextChars ?? DEFAULTS.contextChars
  // Up to 10,000 links, each a URL to parse: in slices, like the texts.
  const linkRefs = (await mapYielding(page.links, (l) => linkRef(l.url, l.text, l.context, 'link'))).filter(
    (r) => r !== undefined,
  )
  return {
    url: page.finalUrl || page.url,
    type: 'page',
    title: page.title ?? '',
    body: page.markdown,
    state: null,
    labels: [],
    comments: [],
    refs: mergeRefs([
      ...linkRefs,
      ...(await readRefs([{ text: page.markdown, options: { source: 'body', contextChars } }])),
    ]),
    links: page.links,
    metadata: {
      requestedUrl: url,
      byline: page.byline,
      siteName: page.siteName,
      lang: page.lang,
      publishedAt: page.publishedAt,
      excerpt: page.excerpt,
      readerable: page.readerable,
    },
  }
}

/** The references of one URL, or why they could not be read. */
export interface UrlRefs {
  url: string
  title?: string
  type?: Thread['type']
  refs: Ref[]
  error?: ThreadError
}

/** Options of `extractRefsFromUrls`. */
export interface ExtractRefsFromUrlsOptions extends FetchThreadOptions {
  /** Threads fetched at once. Default 4. */
  urlConcurrency?: number
}

/**
 * Fetches many URLs with bounded concurrency and returns each one's references (duplicate URLs fetched once).
 * Never rejects for one URL's failure: that URL gets an `error`; rejects only on invalid options.
 */
export async function extractRefsFromUrls(
  urls: readonly string[],
  options: ExtractRefsFromUrlsOptions = {},
): Promise<UrlRefs[]> {
  const { urlConcurrency = 4, ...rest } = options
  const order = urls.map((url) => ({ url, key: canonicalUrl(url) }))
  const distinct = [...new Map(order.map((o) => [o.key, o.url])).entries()]
  const results = await mapLimit(distinct, urlConcurrency, async ([, url]): Promise<UrlRefs> => {
    try {
      const thread = await fetchThread(url, rest)
      return { url, title: thread.title, type: thread.type, refs: thread.refs }
    } catch (error) {
      return { url, refs: [], error: errorJson(toThreadError(error, 'thread')) }
    }
  })
  const byKey = new Map(distinct.map(([key], i) => [key, results[i]!]))
  return order.map((o) => ({ ...byKey.get(o.key)!, url: o.url }))
}

/** A thread reduced to its references (`--extract-refs-only`). */
export function threadRefsOnly(thread: Thread): UrlRefs {
  return {
    url: thread.url,
    title: thread.title,
    type: thread.type,
    refs: thread.refs,
    ...(thread.error && { error: thread.error }),
  }
}
