import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { postJson, vendorRequest } from '../_test-helpers.js'
import { type Emulator, startEmulator } from '../index.js'

let emu: Emulator
beforeEach(async () => {
  emu ??= await startEmulator()
  emu.reset()
})
afterAll(() => emu?.close())

// biome-ignore lint/suspicious/noExplicitAny: test-only access into vendor JSON
type Json = Record<string, any>

const braveUrl = (params: Record<string, string>) =>
  `${emu.urls.brave}/res/v1/web/search?${new URLSearchParams(params)}`
const braveGet = (params: Record<string, string>, token = emu.keys.brave) =>
  fetch(braveUrl(params), { headers: { 'X-Subscription-Token': token } })

describe('brave', () => {
  it('answers the web search shape with rate-limit headers', async () => {
    const res = await braveGet({ q: 'rust async tokio', count: '5' })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-ratelimit-limit')).toBe('1, 15000')
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0, 14998')
    expect(res.headers.get('x-ratelimit-reset')).toBe('1, 1419200')
    expect(res.headers.get('x-ratelimit-policy')).toBeTruthy()
    const body = (await res.json()) as Json
    expect(body.type).toBe('search')
    expect(body.query.original).toBe('rust async tokio')
    expect(body.web.type).toBe('search')
    expect(body.web.results).toHaveLength(5)
    const first = body.web.results[0]
    expect(first).toMatchObject({
      type: 'search_result',
      meta_url: { scheme: 'https' },
      profile: { name: expect.any(String) },
    })
    expect(first.page_age).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/)
    expect(first.age).toMatch(/ago$|\d{4}$/)
    expect(first.meta_url.hostname).toBe(new URL(first.url).hostname)
  })

  it('adds www. and a trailing slash to URLs', async () => {
    const body = (await (await braveGet({ q: 'tokio runtime github' })).json()) as Json
    const urls: string[] = body.web.results.map((r: Json) => r.url)
    expect(urls).toContain('https://www.github.com/tokio-rs/tokio/')
  })

  it('decorates descriptions with <strong> and entities unless text_decorations=false', async () => {
    const on = (await (await braveGet({ q: 'kubernetes pods' })).json()) as Json
    expect(on.web.results.some((r: Json) => r.description.includes('<strong>'))).toBe(true)
    const off = (await (await braveGet({ q: 'kubernetes pods', text_decorations: 'false' })).json()) as Json
    expect(off.web.results.every((r: Json) => !r.description.includes('<strong>'))).toBe(true)
  })

  it('returns extra_snippets only when asked', async () => {
    const plain = (await (await braveGet({ q: 'postgresql index' })).json()) as Json
    expect(plain.web.results[0].extra_snippets).toBeUndefined()
    const extra = (await (await braveGet({ q: 'postgresql index', extra_snippets: 'true' })).json()) as Json
    expect(extra.web.results[0].extra_snippets.length).toBeGreaterThan(0)
  })

  it('pages with offset (a page index) and filters by freshness', async () => {
    const p0 = (await (await braveGet({ q: 'react', count: '3', offset: '0' })).json()) as Json
    const p1 = (await (await braveGet({ q: 'react', count: '3', offset: '1' })).json()) as Json
    const urls0 = p0.web.results.map((r: Json) => r.url)
    expect(p1.web.results.map((r: Json) => r.url).some((u: string) => urls0.includes(u))).toBe(false)
    const week = (await (await braveGet({ q: 'ai news', freshness: 'pw' })).json()) as Json
    for (const r of week.web.results)
      expect(Date.parse(`${r.page_age}Z`)).toBeGreaterThanOrEqual(Date.parse('2026-11-13T12:00:00Z'))
    const range = (await (await braveGet({ q: 'kubernetes', freshness: '2026-08-01to2026-08-31' })).json()) as Json
    for (const r of range.web.results) expect(r.page_age.slice(0, 7)).toBe('2026-08')
  })

  it.each([
    [{ q: 'x', count: '21' }, 'count', 'less_than_equal'],
    [{ q: 'x', count: '0' }, 'count', 'greater_than_equal'],
    [{ q: 'x', offset: '10' }, 'offset', 'less_than_equal'],
    [{ count: '5' }, 'q', 'missing'],
    [{ q: 'x', freshness: 'yesterday' }, 'freshness', 'value_error'],
  ])('rejects %j with a 422 VALIDATION error on %s', async (params, loc, type) => {
    const res = await braveGet(params)
    expect(res.status).toBe(422)
    const body = (await res.json()) as Json
    expect(body).toMatchObject({
      type: 'ErrorResponse',
      error: { status: 422, code: 'VALIDATION', meta: { errors: [{ loc: ['query', loc], type }] } },
    })
  })

  it.each([
    ['missing', undefined],
    ['wrong', 'BSAwrong'],
  ])('%s token → 422 SUBSCRIPTION_TOKEN_INVALID', async (_label, token) => {
    const res = await fetch(braveUrl({ q: 'x' }), { headers: token ? { 'X-Subscription-Token': token } : {} })
    expect(res.status).toBe(422)
    const body = (await res.json()) as Json
    expect(body).toMatchObject({
      type: 'ErrorResponse',
      error: { status: 422, code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.' },
    })
    expect(body.error.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(typeof body.time).toBe('number')
    expect(JSON.stringify(body)).not.toContain('BSAwrong')
  })
})

describe('exa', () => {
  const exa = (body: unknown, headers: Record<string, string> = { 'x-api-key': emu.keys.exa }) =>
    postJson(`${emu.urls.exa}/search`, body, headers)

  it('answers results with ms-precision dates, cost and no text unless asked', async () => {
    const res = await exa({ query: 'python asyncio tasks', type: 'auto', numResults: 4 })
    expect(res.status).toBe(200)
    const body = (await res.json()) as Json
    expect(body.requestId).toMatch(/^[0-9a-f]{32}$/)
    expect(body.resolvedSearchType).toMatch(/neural|keyword/)
    expect(body.results).toHaveLength(4)
    expect(body.costDollars.total).toBeGreaterThan(0)
    for (const r of body.results) {
      expect(r.publishedDate).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/)
      expect(r.id).toBe(r.url)
      expect(r.text).toBeUndefined()
    }
  })

  it('returns text (capped) and highlights when contents asks', async () => {
    const body = (await (
      await exa({
        query: 'python asyncio',
        numResults: 3,
        contents: { text: { maxCharacters: 50 }, highlights: { numSentences: 1 } },
      })
    ).json()) as Json
    for (const r of body.results) {
      expect(r.text.length).toBeLessThanOrEqual(50)
      expect(r.highlights).toHaveLength(1)
      expect(r.highlightScores).toHaveLength(1)
    }
    expect(body.costDollars.contents).toHaveProperty('text')
  })

  it('gives a null title for some pages', async () => {
    const body = (await (await exa({ query: 'postgresql index types', numResults: 5 })).json()) as Json
    expect(body.results.some((r: Json) => r.title === null)).toBe(true)
  })

  it('respects includeDomains, excludeDomains and the published-date window', async () => {
    const inc = (await (
      await exa({ query: 'rust async', numResults: 6, includeDomains: ['stackoverflow.com'] })
    ).json()) as Json
    for (const r of inc.results) expect(new URL(r.url).hostname).toMatch(/(^|\.)stackoverflow\.com$/)
    const exc = (await (
      await exa({ query: 'rust async', numResults: 8, excludeDomains: ['github.com', 'stackoverflow.com'] })
    ).json()) as Json
    for (const r of exc.results) expect(new URL(r.url).hostname).not.toMatch(/github\.com|stackoverflow\.com/)
    const dated = (await (
      await exa({
        query: 'kubernetes',
        numResults: 6,
        startPublishedDate: '2026-08-01T00:00:00.000Z',
        endPublishedDate: '2026-09-30T23:59:59.000Z',
      })
    ).json()) as Json
    for (const r of dated.results) expect(r.publishedDate >= '2026-08-01' && r.publishedDate <= '2026-09-31').toBe(true)
  })

  it.each([
    [{ numResults: 3 }, /query/],
    [{ query: 'x', numResults: 101 }, /numResults/],
    [{ query: 'x', type: 'magic' }, /type/],
    [{ query: 'x', includeDomains: ['a.com'], excludeDomains: ['b.com'] }, /includeDomains/],
  ])('400 INVALID_REQUEST_BODY for %j', async (body, message) => {
    const res = await exa(body)
    expect(res.status).toBe(400)
    const json = (await res.json()) as Json
    expect(json).toMatchObject({ tag: 'INVALID_REQUEST_BODY', requestId: expect.any(String) })
    expect(json.error).toMatch(message)
  })

  it.each([
    ['missing', {}],
    ['wrong', { 'x-api-key': 'exa-wrong' }],
  ])('%s key → 401 INVALID_API_KEY', async (_l, headers) => {
    const res = await exa({ query: 'x' }, headers)
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({ tag: 'INVALID_API_KEY' })
  })

  it('also accepts the key as a bearer token', async () => {
    expect((await exa({ query: 'x' }, { authorization: `Bearer ${emu.keys.exa}` })).status).toBe(200)
  })
})

describe('tavily', () => {
  const tavily = (body: unknown, headers: Record<string, string> = { authorization: `Bearer ${emu.keys.tavily}` }) =>
    postJson(`${emu.urls.tavily}/search`, body, headers)

  it('answers the search shape with utm-tagged URLs and no answer by default', async () => {
    const body = (await (await tavily({ query: 'bun vs deno', max_results: 5 })).json()) as Json
    expect(body).toMatchObject({
      query: 'bun vs deno',
      follow_up_questions: null,
      answer: null,
      images: [],
      response_time: expect.any(Number),
      request_id: expect.any(String),
    })
    expect(body.results).toHaveLength(5)
    for (const r of body.results) {
      expect(r.url).toContain('utm_source=tavily&utm_medium=api')
      expect(r).toMatchObject({
        title: expect.any(String),
        content: expect.any(String),
        score: expect.any(Number),
        raw_content: null,
      })
      expect(r.published_date).toBeUndefined()
    }
  })

  it('adds an answer naming the top doc, raw content and news dates when asked', async () => {
    const body = (await (
      await tavily({
        query: 'bun vs deno',
        include_answer: true,
        include_raw_content: true,
        topic: 'news',
        max_results: 3,
      })
    ).json()) as Json
    expect(body.answer).toContain(body.results[0].title)
    expect(body.results[0].raw_content).toContain(body.results[0].title)
    expect(body.results[0].published_date).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/)
  })

  it('filters by domains and time_range', async () => {
    const inc = (await (
      await tavily({ query: 'react', include_domains: ['react.dev'], max_results: 4 })
    ).json()) as Json
    for (const r of inc.results) expect(new URL(r.url).hostname).toBe('react.dev')
    const week = (await (await tavily({ query: 'ai news', time_range: 'week', topic: 'news' })).json()) as Json
    for (const r of week.results)
      expect(Date.parse(r.published_date)).toBeGreaterThanOrEqual(Date.parse('2026-11-13T12:00:00Z'))
  })

  it.each([
    [{ max_results: 3 }, 'Query is missing.'],
    [{ query: 'x', max_results: 21 }, 'max_results must be between 0 and 20.'],
    [{ query: 'x', topic: 'sports' }, expect.stringContaining('Invalid topic')],
    [{ query: 'x', time_range: 'decade' }, expect.stringContaining('time_range')],
  ])('400 for %j', async (body, error) => {
    const res = await tavily(body)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ detail: { error } })
  })

  it.each([
    ['no header', {}, {}],
    ['key only in the body', {}, { api_key: 'tvly-test-key-0001' }],
    ['wrong key', { authorization: 'Bearer tvly-wrong' }, {}],
  ])('%s → 401', async (_l, headers, extra) => {
    const res = await tavily({ query: 'x', ...extra }, headers)
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ detail: { error: 'Unauthorized: missing or invalid API key.' } })
  })
})

describe('xai', () => {
  const auth = () => ({ authorization: `Bearer ${emu.keys.grok}` })

  it('responses: web_search_call then a message whose url_citation annotations index the text', async () => {
    const res = await postJson(
      `${emu.urls.grok}/responses`,
      {
        model: 'grok-4-fast',
        input: [{ role: 'user', content: 'webtransport http3' }],
        tools: [{ type: 'web_search' }],
      },
      auth(),
    )
    expect(res.status).toBe(200)
    const body = (await res.json()) as Json
    expect(body).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'grok-4-fast',
      usage: { server_side_tool_usage_details: { web_search_calls: 1 } },
    })
    expect(body.output[0]).toMatchObject({
      type: 'web_search_call',
      status: 'completed',
      action: { type: 'search', query: 'webtransport http3' },
    })
    const message = body.output[1]
    expect(message).toMatchObject({ type: 'message', role: 'assistant', status: 'completed' })
    const { text, annotations } = message.content[0]
    expect(annotations.length).toBeGreaterThan(2)
    for (const a of annotations) {
      expect(a.type).toBe('url_citation')
      expect(text.slice(a.start_index, a.end_index)).toMatch(/^\[\[\d+\]\]\(.+\)$/)
      expect(text.slice(a.start_index, a.end_index)).toContain(a.url)
      expect(new URL(a.url).hash).not.toBe('')
    }
    expect(annotations.map((a: Json) => a.url)).toContain('https://web.dev/articles/webtransport#overview')
  })

  it('responses: honours allowed_domains and excluded_domains filters', async () => {
    const body = (await (
      await postJson(
        `${emu.urls.grok}/responses`,
        {
          model: 'grok-4-fast',
          input: 'rust async',
          tools: [{ type: 'web_search', filters: { allowed_domains: ['stackoverflow.com'] } }],
        },
        auth(),
      )
    ).json()) as Json
    for (const a of body.output[1].content[0].annotations) expect(new URL(a.url).hostname).toBe('stackoverflow.com')
  })

  it('the retired search_parameters field → 410', async () => {
    const res = await postJson(
      `${emu.urls.grok}/chat/completions`,
      { model: 'grok-4-fast', messages: [{ role: 'user', content: 'x' }], search_parameters: { mode: 'on' } },
      auth(),
    )
    expect(res.status).toBe(410)
    expect(((await res.json()) as Json).error).toMatch(/Live search is deprecated/)
  })

  it.each([
    ['wrong key', 'xai-wrong-key-99', 'xa***99'],
    ['no key', undefined, ''],
  ])('%s → 400 with the key masked', async (_l, key, shown) => {
    const res = await postJson(
      `${emu.urls.grok}/responses`,
      { model: 'grok-4-fast', input: 'x' },
      key ? { authorization: `Bearer ${key}` } : {},
    )
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      code: 'Client specified an invalid argument',
      error: `Incorrect API key provided: ${shown}. You can obtain an API key from https://console.x.ai.`,
    })
  })

  it('chat/completions: prose + fenced JSON array of real corpus URLs', async () => {
    const body = (await (
      await postJson(
        `${emu.urls.grok}/chat/completions`,
        { model: 'grok-4-fast', messages: [{ role: 'user', content: 'bun vs deno' }] },
        auth(),
      )
    ).json()) as Json
    const content: string = body.choices[0].message.content
    expect(content.startsWith('<think>')).toBe(false)
    const json = /```json\n([\s\S]*?)\n```/.exec(content)?.[1]
    const items = JSON.parse(json!) as Json[]
    expect(items[0]).toMatchObject({
      title: expect.any(String),
      url: expect.stringMatching(/^https:\/\//),
      snippet: expect.any(String),
      published_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    })
    expect(content.trim().endsWith('```')).toBe(false)
  })

  it('chat/completions: reasoning models prefix a <think> block', async () => {
    const body = (await (
      await postJson(
        `${emu.urls.grok}/chat/completions`,
        { model: 'grok-4-fast-reasoning', messages: [{ role: 'user', content: 'bun' }] },
        auth(),
      )
    ).json()) as Json
    expect(body.choices[0].message.content).toMatch(/^<think>[\s\S]+<\/think>/)
  })

  it('chat/completions with stream:true answers SSE that reassembles to the same content', async () => {
    const req = { model: 'grok-4-fast', messages: [{ role: 'user', content: 'kubernetes' }] }
    const whole = ((await (await postJson(`${emu.urls.grok}/chat/completions`, req, auth())).json()) as Json).choices[0]
      .message.content
    const res = await postJson(`${emu.urls.grok}/chat/completions`, { ...req, stream: true }, auth())
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const events = (await res.text()).split('\n\n').filter(Boolean)
    expect(events.at(-1)).toBe('data: [DONE]')
    const text = events
      .slice(0, -1)
      .map((e) => JSON.parse(e.replace(/^data: /, '')) as Json)
      .map((c) => c.choices[0].delta.content ?? '')
      .join('')
    expect(text).toBe(whole)
  })
})

describe('cross-provider overlap', () => {
  const norm = (u: string) => {
    const url = new URL(u)
    url.hash = ''
    url.searchParams.delete('utm_source')
    url.searchParams.delete('utm_medium')
    return `${url.hostname.replace(/^www\./, '')}${url.pathname.replace(/\/$/, '')}${url.search}`
  }
  it('vendors share top documents under URL variants, in slightly different orders, with some exclusives', async () => {
    const q = 'bun vs deno'
    const brave = ((await (await vendorRequest(emu, 'brave', q)).json()) as Json).web.results.map(
      (r: Json) => r.url,
    ) as string[]
    const exa = ((await (await vendorRequest(emu, 'exa', q)).json()) as Json).results.map(
      (r: Json) => r.url,
    ) as string[]
    const tavily = ((await (await vendorRequest(emu, 'tavily', q)).json()) as Json).results.map(
      (r: Json) => r.url,
    ) as string[]
    const shared = exa.map(norm).filter((u) => brave.map(norm).includes(u) && tavily.map(norm).includes(u))
    expect(shared.length).toBeGreaterThanOrEqual(2)
    expect(brave.map(norm)).toContain('reddit.com/r/javascript/comments/1g7x2k9/bun_vs_deno_in_production')
    expect(exa.map(norm)).not.toContain('reddit.com/r/javascript/comments/1g7x2k9/bun_vs_deno_in_production')
    expect(new Set(brave).size).toBe(brave.length)
  })

  it.each(['brave', 'exa', 'tavily', 'grok'] as const)(
    '%s: the same query gives byte-identical bodies',
    async (service) => {
      const a = await (await vendorRequest(emu, service, 'Rust 异步编程')).text()
      const b = await (await vendorRequest(emu, service, 'Rust 异步编程')).text()
      expect(a).toBe(b)
    },
  )
})
