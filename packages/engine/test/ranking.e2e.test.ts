import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SearchResult } from '@search-layer/core'
import { describe, expect, it } from 'vitest'
import { createSearchLayer } from '../src/index.js'
import { pluginProvider } from '@search-layer/testkit'

// What real result sets show: one wire story syndicated under three domains, and one blog filling the page.
const STORY_TITLE = 'Node.js 24 ships a permission model for child processes'
const STORY_TEXT =
  'The Node.js project released version 24 today with a stable permission model that limits child processes, workers and file access.'
const story = (host: string): Omit<SearchResult, 'provider' | 'rank'> => ({
  title: STORY_TITLE,
  url: `https://${host}/news/2025/node-24-permission-model`,
  snippet: STORY_TEXT,
  publishedAt: '2025-05-06T00:00:00Z',
})
const result = (url: string, title: string, snippet: string): Omit<SearchResult, 'provider' | 'rank'> => ({
  title,
  url,
  snippet,
  publishedAt: '2025-05-01T00:00:00Z',
})
const blog = (slug: string, title: string, snippet: string) =>
  result(`https://permissionsblog.dev/posts/${slug}`, title, snippet)

const PAGE = [
  story('wire-news.org'),
  blog(
    'fs-access',
    'Reading files under --permission',
    'Grant read access per directory with --allow-fs-read and see what the error looks like when a path is denied.',
  ),
  blog(
    'workers',
    'Worker threads and the permission flag',
    'Workers inherit the process permissions; spawning one needs --allow-worker or the call throws ERR_ACCESS_DENIED.',
  ),
  story('dailytech.net'),
  blog(
    'child-process',
    'Spawning processes safely',
    'The --allow-child-process flag gates exec and spawn; we measure the startup cost of the check in a CLI.',
  ),
  blog(
    'addons',
    'Native addons are off by default',
    'Loading a .node binary requires --allow-addons; prebuilt packages such as sharp fail until you grant it.',
  ),
  blog(
    'wasi',
    'WASI inside a sandboxed runtime',
    'Combining the WASI preview with process permissions gives two layers: capability files and interpreter flags.',
  ),
  story('mirror-news.io'),
  blog(
    'policy',
    'From policy manifests to permissions',
    'The old experimental policy manifests are gone; here is how each integrity rule maps to a permission flag.',
  ),
  result(
    'https://nodedocs.dev/api/permissions',
    'Permissions | API reference',
    'process.permission.has(scope, reference) checks a grant at run time; scopes are fs.read, fs.write, child and worker.',
  ),
  result(
    'https://nodeguide.com/securing-node',
    'Securing a Node.js service in production',
    'Least privilege for web servers: run as a non-root user, restrict the file system and audit dependencies.',
  ),
  result(
    'https://devforum.community/t/permission-model-in-ci',
    'Using the permission model in CI pipelines',
    'Our test runner needed write access to a temp directory only; the flags made a misbehaving test fail loudly.',
  ),
  result(
    'https://changelog.app/node-24',
    'Node 24 changelog highlights',
    'V8 13.6, the URLPattern global, npm 11 and the permission model leaving experimental status.',
  ),
  result(
    'https://secadvisories.org/advisories/node-sandbox',
    'Is the Node.js permission model a sandbox?',
    'No: it guards against mistakes in trusted code, not against malicious code, as the documentation warns.',
  ),
  result(
    'https://videohub.net/watch/node-permissions-demo',
    'Ten-minute demo of --permission',
    'Live coding: a script that tries to read ~/.ssh is stopped, then granted access to one directory only.',
  ),
  result(
    'https://conftalks.tv/node-permissions',
    'Talk: designing the permission model',
    'A core contributor explains why the model is process-wide and what the threat model leaves out.',
  ),
]

// A plug-in that answers every query with the same recorded-shaped page, so the ranking is the only variable.
const fixed = pluginProvider('fixed', () => ({
  results: PAGE.map((r, i) => ({ ...r, provider: 'fixed', rank: i + 1 })),
}))

const layer = () =>
  createSearchLayer({
    env: { HOME: mkdtempSync(join(tmpdir(), 'sl-ranking-')) },
    providers: [fixed],
    cache: false,
  })
const search = (query: string) =>
  layer().search({ query, sources: ['fixed'], intent: 'exploratory', maxQueries: 1, explain: true })
const siteOf = (url: string) => new URL(url).hostname

describe('ranking through the whole pipeline', () => {
  it('folds a syndicated story into one result that keeps every URL', async () => {
    const res = await search('node.js permission model')
    const copies = res.results.filter((r) => r.title === STORY_TITLE)
    expect(copies).toHaveLength(1)
    const [kept] = copies
    const urls = [kept!.url, ...(kept!.duplicates ?? []).map((d) => d.url)].map(siteOf).sort()
    expect(urls).toEqual(['dailytech.net', 'mirror-news.io', 'wire-news.org'])
    expect(kept!.explain).toMatchObject({ near_duplicates: 2 })
    expect(res.count).toBe(PAGE.length - 2)
  })

  it('keeps one site to three of the top ten, moving the rest down with their old place', async () => {
    const res = await search('node.js permission model')
    const topTen = res.results.slice(0, 10).map((r) => siteOf(r.url))
    expect(topTen.filter((s) => s === 'permissionsblog.dev')).toHaveLength(3)
    const moved = res.results.filter((r) => r.explain?.demoted_from !== undefined)
    expect(moved.length).toBeGreaterThan(0)
    for (const r of moved) {
      expect(siteOf(r.url)).toBe('permissionsblog.dev')
      // It had a top-ten place and now sits below the top ten.
      expect(r.explain!.demoted_from!).toBeLessThanOrEqual(10)
      expect(res.results.indexOf(r) + 1).toBeGreaterThan(10)
    }
    // Moved down, not out: all six posts are still there.
    expect(res.results.filter((r) => siteOf(r.url) === 'permissionsblog.dev')).toHaveLength(6)
  })

  it('lets the site the query names fill the page', async () => {
    const res = await search('permissionsblog.dev node.js permission model')
    expect(res.results.some((r) => r.explain?.demoted_from !== undefined)).toBe(false)
  })

  it('says what to change when its only providers are keyless and keyless sources are off', async () => {
    const off = createSearchLayer({
      env: { HOME: mkdtempSync(join(tmpdir(), 'sl-ranking-')), SEARCH_LAYER_KEYLESS: 'off' },
      providers: [fixed],
    })
    await expect(off.search({ query: 'node.js permission model' })).rejects.toThrow(
      'no search provider is configured: every provider needs no key; keyless sources are off (SEARCH_LAYER_KEYLESS=off, or "keyless": false in the config file)',
    )
  })

  it('is deterministic: the same page ranks the same way twice', async () => {
    const [a, b] = await Promise.all([search('node.js permission model'), search('node.js permission model')])
    expect(b.results.map((r) => r.url)).toEqual(a.results.map((r) => r.url))
  })
})
