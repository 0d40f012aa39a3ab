import { request } from 'node:http'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { postJson } from '../_test-helpers.js'
import { type Emulator, startEmulator } from '../index.js'

let emu: Emulator
beforeEach(async () => {
  emu ??= await startEmulator()
  emu.reset()
})
afterAll(() => emu?.close())

// biome-ignore lint/suspicious/noExplicitAny: test-only access into vendor JSON
type Json = Record<string, any>

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers })

// fetch() decompresses transparently; the raw bytes show what the Stack Exchange API really sends.
function rawGet(url: string): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
    })
      .on('error', reject)
      .end()
  })
}

describe('hackernews (Algolia)', () => {
  it('answers search with Algolia hits and search_by_date newest first within numericFilters', async () => {
    const relevance = (await (
      await get(`${emu.urls.hackernews}/search?query=rust&tags=story&hitsPerPage=5`)
    ).json()) as Json
    expect(relevance).toMatchObject({ hitsPerPage: 5, page: 0, query: 'rust' })
    expect(relevance.hits[0]).toMatchObject({ objectID: expect.any(String), created_at_i: expect.any(Number) })
    const since = Date.parse('2026-01-01T00:00:00Z') / 1000
    const res = await get(`${emu.urls.hackernews}/search_by_date?query=rust&numericFilters=created_at_i>${since}`)
    const hits = ((await res.json()) as Json).hits as Json[]
    const times = hits.map((h) => h.created_at_i as number)
    expect(times).toEqual([...times].sort((a, b) => b - a))
    for (const t of times) expect(t).toBeGreaterThan(since)
    expect((await get(`${emu.urls.hackernews}/search?query=x&numericFilters=created_at_i~1`)).status).toBe(400)
  })
})

describe('wikipedia (MediaWiki)', () => {
  it('serves one wiki per language and reports API errors with HTTP 200', async () => {
    const url = emu.urls.wikipedia.replace('{lang}', 'zh')
    const body = (await (
      await get(`${url}/w/api.php?action=query&list=search&srsearch=rust&format=json&formatversion=2`)
    ).json()) as Json
    expect(body.batchcomplete).toBe(true)
    expect(body.query.search[0]).toMatchObject({ ns: 0, title: expect.any(String), pageid: expect.any(Number) })
    expect(body.query.search[0].snippet).toContain('<span class="searchmatch">')
    emu.fault('wikipedia', { status: 200, code: 'maxlag' })
    const lag = await get(`${url}/w/api.php?action=query&list=search&srsearch=rust&format=json`)
    expect(lag.status).toBe(200)
    expect(lag.headers.get('retry-after')).toBe('5')
    expect(((await lag.json()) as Json).error.code).toBe('maxlag')
  })
})

describe('github search', () => {
  it('answers search/repositories with the search rate window, and a secondary limit with Retry-After', async () => {
    const res = await get(`${emu.urls.github}/search/repositories?q=rust+pushed:>=2026-01-01&per_page=3`)
    expect(res.headers.get('x-ratelimit-resource')).toBe('search')
    expect(res.headers.get('x-ratelimit-limit')).toBe('10')
    const body = (await res.json()) as Json
    expect(body.items).toHaveLength(3)
    for (const repo of body.items) expect(repo.pushed_at >= '2026-01-01').toBe(true)
    emu.fault('github', { status: 403, code: 'secondary' })
    const limited = await get(`${emu.urls.github}/search/issues?q=x`)
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([403, '60'])
    expect(((await limited.json()) as Json).message).toMatch(/secondary rate limit/)
  })
})

describe('stackexchange', () => {
  it('gzips every answer, success and error alike', async () => {
    const ok = await rawGet(`${emu.urls.stackexchange}/search/advanced?q=rust&site=stackoverflow&pagesize=2`)
    expect(ok.headers['content-encoding']).toBe('gzip')
    const body = JSON.parse(gunzipSync(ok.body).toString('utf8')) as Json
    expect(body).toMatchObject({ quota_max: 300, quota_remaining: 247 })
    expect(body.items).toHaveLength(2)
    emu.fault('stackexchange', { status: 400, code: 'throttle_violation' })
    const throttled = await rawGet(`${emu.urls.stackexchange}/search/advanced?q=rust&site=stackoverflow`)
    expect(throttled.status).toBe(400)
    expect(JSON.parse(gunzipSync(throttled.body).toString('utf8'))).toMatchObject({
      error_id: 502,
      error_name: 'throttle_violation',
    })
  })
})

describe('searxng', () => {
  it('answers format=json and refuses other formats with the bare 403 page', async () => {
    const body = (await (await get(`${emu.urls.searxng}/search?q=rust&format=json`)).json()) as Json
    expect(body.results[0]).toMatchObject({ url: expect.any(String), engines: expect.any(Array) })
    expect(body.unresponsive_engines).toEqual(expect.arrayContaining([['duckduckgo', 'CAPTCHA']]))
    const html = await get(`${emu.urls.searxng}/search?q=rust&format=html`)
    expect(html.status).toBe(403)
    expect(await html.text()).toContain('<title>403 Forbidden</title>')
  })
})

describe('duckduckgo', () => {
  it('serves a results page with an ad and redirect links, and the challenge page as a fault', async () => {
    const page = await (await get(`${emu.urls.duckduckgo}/html/?q=rust+async`)).text()
    expect(page).toContain('result--ad')
    expect(page).toContain('//duckduckgo.com/l/?uddg=')
    expect(page.match(/class="result__a"/g)?.length).toBe(11)
    emu.fault('duckduckgo', { status: 202, code: 'anomaly' })
    const challenge = await get(`${emu.urls.duckduckgo}/html/?q=rust`)
    expect(challenge.status).toBe(202)
    expect(await challenge.text()).toContain('anomaly-modal')
  })
})

describe('bocha', () => {
  it('needs the Bearer key and answers the SearchResponse envelope', async () => {
    const denied = await postJson(`${emu.urls.bocha}/web-search`, { query: 'rust' })
    expect(denied.status).toBe(401)
    expect(await denied.json()).toMatchObject({ code: '401', message: 'Missing API KEY' })
    const res = await postJson(
      `${emu.urls.bocha}/web-search`,
      { query: 'rust', count: 2, freshness: 'oneYear' },
      { authorization: `Bearer ${emu.keys.bocha}` },
    )
    const body = (await res.json()) as Json
    expect(body).toMatchObject({ code: 200, msg: null, data: { _type: 'SearchResponse' } })
    expect(body.data.webPages.value).toHaveLength(2)
    expect(body.data.webPages.value[0].datePublished).toMatch(/\+08:00$/)
  })
})
