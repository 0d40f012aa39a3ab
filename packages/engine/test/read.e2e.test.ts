import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { InputError, type ProviderDefinition, defineProvider } from '@search-layer/core'
import { useEmulator } from '@search-layer/testkit/vitest'
import { beforeAll, describe, expect, it } from 'vitest'
import { type CacheStore, type SearchLayerOptions, createMemoryCache, createSearchLayer } from '../src/index.js'
import { SearchResponseSchema } from '../src/schemas.js'
import { pluginProvider } from '@search-layer/testkit'

// Searches whose results are real pages on loopback (the emulator's /pages routes), answered by a plug-in. page-fetch
// refuses loopback unless told: the layer is given `pageFetch.allowHosts` for 127.0.0.1, and an env without
// SEARCH_LAYER_ALLOW_PRIVATE_HOSTS.
const emu = useEmulator()
const pageFetch = { allowHosts: ['127.0.0.1'] }
const env = () => ({ HOME: mkdtempSync(join(tmpdir(), 'sl-read-')) })

const SELECT_PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>tokio::select! in loops</title></head>
<body><main><article><h1>tokio::select! in loops</h1>
<h2>Cancellation safety</h2>
<p>When tokio::select! runs in a loop, every branch that loses the race is dropped. A future that is not
cancellation safe, such as one reading into a buffer it owns, loses the data it had read. Keep such futures
outside the loop and pass a mutable reference to select! instead.</p>
</article></main></body></html>`

const PATHS = ['/select', '/article', '/not-found', '/zh-gbk']
const pages = pluginProvider('pages', () => ({
  results: PATHS.map((path, i) => ({
    title: `Page ${path}`,
    url: `${emu.urls.pages}${path}`,
    snippet: 'tokio select cancellation',
    publishedAt: null,
    provider: 'pages',
    rank: i + 1,
  })),
}))

type ExtractPool = NonNullable<NonNullable<SearchLayerOptions['pageFetch']>['extractPool']>

const layer = (options: { cache?: CacheStore | false; pageFetch?: typeof pageFetch } = { pageFetch }) =>
  createSearchLayer({ env: env(), providers: [pages], cache: false, rateLimits: false, ...options })
const ask = { sources: ['pages'], intent: 'none' as const, maxQueries: 1 }

beforeAll(async () => {
  emu.pages.set('/select', { body: SELECT_PAGE })
  // page-fetch's two extraction workers start on the first pages (from TypeScript sources, through tsx): not in a
  // test's time.
  await layer().search({ ...ask, query: 'warm up', deadlineMs: 18_000, read: { pages: 2, timeoutMs: 18_000 } })
})

describe('reading the top results as part of a search', () => {
  it('reads the top N after ranking and returns reads and passages', async () => {
    // Time enough for a loaded machine: what is read, not how fast, is under test here.
    const read = { pages: 3, timeoutMs: 15_000 }
    const res = await layer().search({
      ...ask,
      query: 'is tokio select cancellation safe in a loop',
      deadlineMs: 60_000,
      read,
    })
    expect(res.reads?.map((r) => [r.url, r.resultRank, r.status, r.kind])).toEqual([
      [res.results[0]!.url, 1, 'ok', 'ok'],
      [res.results[1]!.url, 2, 'ok', 'ok'],
      [res.results[2]!.url, 3, 'failed', 'http'],
    ])
    expect(res.passages?.[0]).toMatchObject({ id: 'p1', url: `${emu.urls.pages}/select`, resultRank: 1 })
    expect(res.passages?.[0]?.text).toContain('cancellation safe')
    expect(SearchResponseSchema.parse(res)).toEqual(res)
    // The fourth result was not asked for, and a search that does not read has neither field.
    expect(emu.requests.filter((r) => r.path.endsWith('/zh-gbk'))).toHaveLength(0)
    const plain = await layer().search({ ...ask, query: 'tokio select' })
    expect(plain).not.toHaveProperty('reads')
    expect(plain).not.toHaveProperty('passages')
  })

  it('returns at its deadline when pages hang, with timeout and deadline entries', async () => {
    emu.latency('pages', 20_000)
    const started = Date.now()
    const res = await layer().search({
      ...ask,
      query: 'tokio select',
      deadlineMs: 1_000,
      read: { pages: 3, timeoutMs: 5_000 },
    })
    // A bound for a hang (the pages take 20 s), not a speed measurement.
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(res.results).toHaveLength(PATHS.length)
    expect(res.reads?.map((r) => [r.status, r.kind])).toEqual([
      ['failed', 'timeout'],
      ['failed', 'timeout'],
      ['skipped', 'deadline'],
    ])
    expect(res.passages).toEqual([])
  })

  it('caches read pages in the layer cache under page:v1:<url>', async () => {
    const cache = createMemoryCache()
    const search = layer({ cache, pageFetch })
    const read = { pages: 2, timeoutMs: 15_000 }
    const first = await search.search({ ...ask, query: 'tokio select cancellation', deadlineMs: 60_000, read })
    expect(first.reads?.map((r) => r.cached)).toEqual([undefined, undefined])
    await new Promise((resolve) => setImmediate(resolve))
    expect(await cache.get(`page:v1:${emu.urls.pages}/select`)).toMatchObject({ title: expect.any(String) })
    const before = emu.count('pages')
    // Another query: the response cache misses, the page cache does not.
    const second = await search.search({ ...ask, query: 'select loop buffer', deadlineMs: 60_000, read })
    expect(second.cached).toBe(false)
    expect(second.reads?.map((r) => [r.status, r.cached])).toEqual([
      ['ok', true],
      ['ok', true],
    ])
    expect(emu.count('pages')).toBe(before)
  })

  it('refuses loopback pages unless the layer allows them', async () => {
    const res = await layer({}).search({ ...ask, query: 'tokio select', read: 1 })
    expect(res.reads?.map((r) => [r.status, r.kind])).toEqual([['failed', 'blocked']])
  })

  it('refuses a bad read count naming read and the range 0 to 10', async () => {
    for (const read of [11, -1, 2.5]) {
      const error = await layer()
        .search({ ...ask, query: 'tokio', read })
        .catch((e: unknown) => e)
      expect(error).toBeInstanceOf(InputError)
      expect((error as InputError).message).toMatch(/read: must be a whole number from 0 to 10/)
    }
  })

  it('reads for several queries run side by side, ranking passages by all of them', async () => {
    const res = await layer().search({
      ...ask,
      queries: ['tokio select loop', 'cancellation safe future buffer'],
      deadlineMs: 60_000,
      read: { pages: 1, timeoutMs: 15_000 },
    })
    expect(res.reads?.map((r) => r.status)).toEqual(['ok'])
    expect(res.passages?.[0]?.text).toContain('cancellation safe')
  })

  it("ranks passages for read.question too: a terse query's page still yields the passage that answers it", async () => {
    // No word of the query is on the page: ranked by the query alone, the page read gives no passage.
    const cache = createMemoryCache()
    const search = layer({ cache, pageFetch })
    const read = { pages: 1, timeoutMs: 15_000 }
    const query = 'rust async pitfalls'
    const terse = await search.search({ ...ask, query, deadlineMs: 60_000, read })
    expect(terse.reads?.map((r) => r.status)).toEqual(['ok'])
    expect(terse.passages).toEqual([])
    const question = 'Does a future lose data when tokio::select! drops it inside a loop?'
    const asked = await search.search({ ...ask, query, deadlineMs: 60_000, read: { ...read, question } })
    // Its own cache entry (the question changes the passages), with the page itself from the page cache.
    expect(asked.cached).toBe(false)
    expect(asked.reads?.map((r) => [r.status, r.cached])).toEqual([['ok', true]])
    expect(asked.passages?.[0]).toMatchObject({ id: 'p1', url: `${emu.urls.pages}/select` })
    expect(asked.passages?.[0]?.text).toContain('loses the data it had read')
  })

  it('starts the extraction workers as a reading search begins, while its providers still answer', async () => {
    // A pool that counts warm() and reads every page as the same short text (what is read is not under test here).
    let warmed = 0
    const extractPool: ExtractPool = {
      warm: () => void warmed++,
      pageFromBody: async (_text, _type, { url }) => ({
        url,
        finalUrl: url,
        title: 'Select',
        byline: null,
        siteName: null,
        lang: 'en',
        publishedAt: null,
        excerpt: null,
        markdown: 'A future that is not cancellation safe loses the data it had read.',
        text: 'A future that is not cancellation safe loses the data it had read.',
        links: [],
        readerable: true,
      }),
      pageFromPdf: () => Promise.reject(new Error('no PDF here')),
      close: async () => undefined,
    }
    // Answers only once the workers were asked to start (or, as a hang guard, after 10 s with nothing).
    const definition: ProviderDefinition = {
      ...pluginProvider('waiting', () => ({ results: [] })),
      id: 'waiting',
      create: () =>
        defineProvider({
          definition,
          run: async () => {
            for (let i = 0; i < 500 && warmed === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20))
            const url = `${emu.urls.pages}/select`
            const result = { title: 'Select', url, snippet: 'tokio select', publishedAt: null, provider: 'waiting' }
            return { results: warmed > 0 ? [{ ...result, rank: 1 }] : [] }
          },
        }),
    }
    const search = createSearchLayer({
      env: env(),
      providers: [definition],
      cache: false,
      rateLimits: false,
      pageFetch: { ...pageFetch, extractPool },
    })
    const res = await search.search({
      sources: ['waiting'],
      intent: 'none',
      maxQueries: 1,
      query: 'tokio select cancellation',
      deadlineMs: 60_000,
      read: { pages: 1, timeoutMs: 15_000 },
    })
    expect(res.results.map((r) => r.url)).toEqual([`${emu.urls.pages}/select`])
    expect(res.reads?.map((r) => r.status)).toEqual(['ok'])
    expect(warmed).toBeGreaterThan(0)
  })
})
