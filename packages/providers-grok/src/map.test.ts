import { readFileSync } from 'node:fs'
import { ProviderError, ProviderRequestSchema } from '@search-layer/core'
import type { HttpErrorResponse } from '@search-layer/core/http'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  buildChatRequest,
  buildResponsesRequest,
  estimateGrokCost,
  extractJsonResults,
  mapChatBody,
  mapGrokError,
  mapResponsesBody,
  readChatBody,
  sentenceAround,
  stripCitationMarkers,
  titleFromUrl,
} from './map.js'
import { GrokChatRequestSchema, GrokResponsesRequestSchema } from './request-schema.js'

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../test/fixtures/${name}`, import.meta.url), 'utf8'))
const req = (extra: Record<string, unknown> = {}) =>
  ProviderRequestSchema.parse({ query: 'grok web search model', ...extra })
const settings = { model: 'grok-4.3', now: new Date('2026-06-01T00:00:00Z') }

describe('buildResponsesRequest', () => {
  it('uses the web_search tool and never Live Search', () => {
    const body = buildResponsesRequest(req(), settings)
    expect(GrokResponsesRequestSchema.parse(body)).toEqual(body)
    expect(body.tools).toEqual([{ type: 'web_search' }])
    expect(body).not.toHaveProperty('search_parameters')
    expect(body.model).toBe('grok-4.3')
  })

  it.each([
    [
      { includeDomains: ['nodejs.org', 'github.com'] },
      { type: 'web_search', allowed_domains: ['nodejs.org', 'github.com'] },
    ],
    [{ excludeDomains: ['pinterest.com'] }, { type: 'web_search', excluded_domains: ['pinterest.com'] }],
    [
      { includeDomains: ['a.com'], excludeDomains: ['b.com'] },
      { type: 'web_search', allowed_domains: ['a.com'] },
    ],
    [{ includeDomains: ['a.com', 'b.com', 'c.com', 'd.com', 'e.com', 'f.com'] }, { type: 'web_search' }],
    [
      { excludeDomains: ['a.com', 'b.com', 'c.com', 'd.com', 'e.com', 'f.com'] },
      { type: 'web_search', excluded_domains: ['a.com', 'b.com', 'c.com', 'd.com', 'e.com'] },
    ],
  ])('domain filters %j → tool %j', (input, tool) => {
    expect(buildResponsesRequest(req(input), settings).tools[0]).toEqual(tool)
  })

  it('builds a valid chat fallback body', () => {
    const body = buildChatRequest(req(), settings)
    expect(GrokChatRequestSchema.parse(body)).toEqual(body)
  })
})

describe('mapResponsesBody', () => {
  const res = mapResponsesBody(fixture('responses-web-search.json'), { model: 'grok-4.3', request: req() })

  it('builds results from url_citation annotations in citation order, deduplicated', () => {
    expect(res.results.map((r) => [r.rank, r.url])).toEqual([
      [1, 'https://docs.x.ai/developers/models'],
      [2, 'https://docs.x.ai/developers/migration/may-15-retirement'],
      [3, 'https://github.com/vercel/ai/pull/15713'],
      [4, 'https://www.example-news.com/2026/05/grok-4-3-pricing.html'],
    ])
    expect(res.results.map((r) => r.url)).not.toContain('https://x.ai/news')
    expect(res.dropped).toBe(1)
  })

  it('derives titles when the annotation title is a citation number', () => {
    expect(res.results[0]?.title).toBe('models - docs.x.ai')
    expect(res.results[3]?.title).toBe('grok 4 3 pricing - example-news.com')
  })

  it('takes the sentence around each citation as snippet', () => {
    expect(res.results[0]?.snippet).toBe(
      "xAI's current flagship for search is Grok 4.3, released to the API on April 30, 2026.",
    )
    expect(res.results[1]?.snippet).toBe(
      'It replaced grok-4-fast and grok-4-1-fast, which were retired on May 15, 2026.',
    )
    expect(res.results[2]?.snippet).toBe(
      'Web search runs server-side through the Responses API; the old Live Search parameters now return 410 Gone.',
    )
    for (const r of res.results) expect(r.snippet).not.toContain('[[')
  })

  it('returns the answer without citation markers and a reported-or-estimated cost', () => {
    expect(res.answer).toContain('Grok 4.3, released to the API on April 30, 2026.')
    expect(res.answer).not.toMatch(/\[\[\d\]\]/)
    expect(res.cost).toEqual({ usd: (9212 * 1.25 + 1417 * 2.5) / 1e6 + 3 * 0.005, basis: 'estimated' })
  })

  it('caps at num and applies domain filters to cited URLs', () => {
    expect(
      mapResponsesBody(fixture('responses-web-search.json'), { model: 'grok-4.3', request: req({ num: 2 }) }).results,
    ).toHaveLength(2)
    const onlyDocs = mapResponsesBody(fixture('responses-web-search.json'), {
      model: 'grok-4.3',
      request: req({ includeDomains: ['x.ai'] }),
    })
    expect(onlyDocs.results.map((r) => new URL(r.url).hostname)).toEqual(['docs.x.ai', 'docs.x.ai'])
    const noGithub = mapResponsesBody(fixture('responses-web-search.json'), {
      model: 'grok-4.3',
      request: req({ excludeDomains: ['github.com'] }),
    })
    expect(noGithub.results.map((r) => r.url)).not.toContain('https://github.com/vercel/ai/pull/15713')
  })

  it('falls back to markdown links only when xAI lists them in citations', () => {
    const body = {
      output: [
        {
          type: 'message',
          content: [
            {
              type: 'output_text',
              text: 'See [the docs](https://docs.x.ai/a) and [a made-up page](https://invented.example/x).',
              annotations: [],
            },
          ],
        },
      ],
      citations: ['https://docs.x.ai/a'],
    }
    expect(mapResponsesBody(body, { model: 'grok-4.3' }).results.map((r) => r.url)).toEqual(['https://docs.x.ai/a'])
  })

  it('uses the URL position when indexes are 0/0', () => {
    const text = 'Intro. Grok 4.3 is out [[1]](https://x.ai/news/grok-4-3). More later.'
    const body = {
      output: [
        {
          type: 'message',
          content: [
            {
              type: 'output_text',
              text,
              annotations: [
                {
                  type: 'url_citation',
                  url: 'https://x.ai/news/grok-4-3',
                  start_index: 0,
                  end_index: 0,
                  title: 'https://x.ai/news/grok-4-3',
                },
              ],
            },
          ],
        },
      ],
    }
    const r = mapResponsesBody(body, { model: 'grok-4.3' }).results[0]
    expect(r).toMatchObject({ title: 'grok 4 3 - x.ai', snippet: 'Grok 4.3 is out.' })
  })

  it('prefers xAI reported cost_in_usd_ticks', () => {
    expect(estimateGrokCost('grok-4.3', { cost_in_usd_ticks: 318_319_000 })).toEqual({
      usd: 0.0318319,
      basis: 'reported',
    })
    expect(estimateGrokCost('grok-4.3', undefined)).toBeUndefined()
  })

  it.each([null, 1, 'x', {}, { output: 'x' }])('rejects %j as bad_response', (body) => {
    expect(() => mapResponsesBody(body, { model: 'm' })).toThrow(expect.objectContaining({ kind: 'bad_response' }))
  })

  it('never throws anything but ProviderError and keeps only http(s) URLs (fuzz)', () => {
    const annotation = fc.record({
      type: fc.constantFrom('url_citation', 'file_citation'),
      url: fc.oneof(fc.webUrl(), fc.string(), fc.constant('javascript:alert(1)'), fc.constant(null)),
      title: fc.oneof(fc.string(), fc.constant(null), fc.nat().map(String)),
      start_index: fc.oneof(fc.integer(), fc.constant(null), fc.double()),
      end_index: fc.oneof(fc.integer(), fc.constant(null)),
    })
    const part = fc.record({
      type: fc.constantFrom('output_text', 'refusal'),
      text: fc.oneof(fc.string(), fc.constant(null)),
      annotations: fc.oneof(fc.array(fc.oneof(annotation, fc.jsonValue())), fc.constant(null)),
    })
    const item = fc.oneof(
      fc.record({ type: fc.constant('message'), content: fc.array(fc.oneof(part, fc.jsonValue())) }),
      fc.jsonValue(),
    )
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record(
        { output: fc.array(item), usage: fc.jsonValue(), citations: fc.array(fc.oneof(fc.webUrl(), fc.jsonValue())) },
        { requiredKeys: ['output'] },
      ),
    )
    fc.assert(
      fc.property(body, (input) => {
        try {
          const out = mapResponsesBody(input, { model: 'grok-4.3', request: req() })
          for (const r of out.results) {
            expect(r.url).toMatch(/^https?:\/\/[^/]/)
            expect(typeof r.snippet).toBe('string')
            expect(typeof r.title).toBe('string')
          }
        } catch (error) {
          expect(error).toBeInstanceOf(ProviderError)
        }
      }),
      { numRuns: 400 },
    )
  })
})

describe('text helpers', () => {
  it('strips citation markers', () => {
    expect(stripCitationMarkers('A [[1]](https://a.com/x). B [[2]](https://b.com)')).toBe('A. B')
  })
  it('finds the sentence for a marker in the middle of a sentence', () => {
    const text = 'First one. The claim [[1]](https://a.com) continues here. Last.'
    const start = text.indexOf('[[')
    expect(sentenceAround(text, start, text.indexOf(')') + 1)).toBe('The claim continues here.')
  })
  it('drops markdown list markers and emphasis from a bulleted answer', () => {
    const text =
      'Sources say:\n\n- **Bun 1.3**: adds a Redis client [[1]](https://bun.sh/blog). \n- **Deno 2.5**: config permissions.'
    expect(sentenceAround(text, text.indexOf('[['), text.indexOf(')') + 1)).toBe('Bun 1.3: adds a Redis client.')
  })
  it('works for Chinese punctuation', () => {
    const text = '第一句。Grok 4.3 已发布[[1]](https://x.ai/news)。第三句。'
    expect(sentenceAround(text, text.indexOf('[['), text.indexOf(')') + 1)).toBe('Grok 4.3 已发布。')
  })
  it.each([
    ['https://www.example.com/', 'example.com'],
    ['https://example.com/blog/how-to_use%20this.html', 'how to use this - example.com'],
    ['https://example.com/posts/12345', 'example.com'],
  ])('titleFromUrl(%s) = %s', (url, title) => expect(titleFromUrl(url)).toBe(title))
})

describe('chat fallback extraction', () => {
  const items = [
    {
      title: 'Node.js releases',
      url: 'https://nodejs.org/en/about/previous-releases',
      snippet: 'Release schedule.',
      published_at: '2026-05-01',
    },
    { title: 'Bad', url: 'file:///etc/passwd', snippet: 'x' },
    { title: 'No host', url: 'https://', snippet: 'x' },
  ]
  const json = JSON.stringify({ results: items })
  const completion = (content: string) =>
    JSON.stringify({
      id: 'c1',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 120, completion_tokens: 80 },
    })

  it.each([
    ['plain JSON', json],
    ['code fence', `\`\`\`json\n${json}\n\`\`\``],
    ['think block first', `<think>Maybe {"results": [{"url": "https://invented.example"}]} would do.</think>\n${json}`],
    ['orphan closing think', `reasoning about it...</think>${json}`],
    ['prose before and after', `Sure! Here you go:\n${json}\nHope this helps {not json}.`],
    ['bare array', `Results: ${JSON.stringify(items)} done`],
    [
      'brackets inside strings',
      JSON.stringify({ results: [{ title: 'a ] b } c', url: 'https://a.example/x', snippet: '"quoted" {x}' }] }),
    ],
  ])('finds results in %s', (_name, content) => {
    const list = extractJsonResults(content)
    expect(list).not.toBeNull()
    expect(JSON.stringify(list)).not.toContain('invented.example')
  })

  it('returns null when there is no JSON list', () => {
    expect(extractJsonResults('I could not find anything.')).toBeNull()
    expect(extractJsonResults('{"answer": 42}')).toBeNull()
  })

  it('maps a JSON completion, keeping only http(s) URLs with a host', () => {
    const res = mapChatBody(completion(`Here:\n\`\`\`json\n${json}\n\`\`\`\nBye.`), {
      model: 'grok-4.3',
      request: req(),
    })
    expect(res.results).toEqual([
      {
        title: 'Node.js releases',
        url: 'https://nodejs.org/en/about/previous-releases',
        snippet: 'Release schedule.',
        publishedAt: '2026-05-01T00:00:00.000Z',
        provider: 'grok',
        rank: 1,
      },
    ])
    expect(res.dropped).toBe(2)
    expect(res.cost).toEqual({ usd: (120 * 1.25 + 80 * 2.5) / 1e6, basis: 'estimated' })
  })

  it('reassembles an SSE-streamed body', () => {
    const content = `<think>hmm</think>\`\`\`json\n${json}\n\`\`\``
    const chunks = content.match(/.{1,13}/gs) ?? []
    const sse = [
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] })}`,
      ...chunks.map((c) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: c } }] })}`),
      'data: [DONE]',
      '',
    ].join('\n\n')
    expect(readChatBody(sse).content).toBe(content)
    expect(mapChatBody(sse, { model: 'grok-4.3' }).results).toHaveLength(1)
  })

  it.each([
    ['<html><body>Bad gateway</body></html>', /HTML/],
    ['{"choices": [', /malformed JSON/],
    ['', /empty body/],
    ['data: nonsense\n\n', /without any completion/],
  ])('rejects %j as bad_response', (text, message) => {
    expect(() => mapChatBody(text, { model: 'm' })).toThrow(
      expect.objectContaining({ kind: 'bad_response', message: expect.stringMatching(message) }),
    )
  })

  it('never throws anything but ProviderError (fuzz)', () => {
    const content = fc.oneof(
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .tuple(fc.string(), fc.jsonValue(), fc.string())
        .map(([a, v, b]) => `${a}\`\`\`json\n${JSON.stringify({ results: v })}\n\`\`\`${b}`),
    )
    const body = fc.oneof(
      fc.string(),
      content.map(completion),
      content.map((c) => `data: ${JSON.stringify({ choices: [{ delta: { content: c } }] })}\n\ndata: [DONE]\n\n`),
    )
    fc.assert(
      fc.property(body, (text) => {
        try {
          for (const r of mapChatBody(text, { model: 'm', request: req() }).results)
            expect(r.url).toMatch(/^https?:\/\/[^/]/)
        } catch (error) {
          expect(error).toBeInstanceOf(ProviderError)
        }
      }),
      { numRuns: 400 },
    )
  })
})

const errorResponse = (status: number, json: unknown, retryAfterMs?: number): HttpErrorResponse => ({
  status,
  headers: {},
  text: JSON.stringify(json),
  json,
  ...(retryAfterMs !== undefined && { retryAfterMs }),
})

describe('mapGrokError', () => {
  it.each([
    [
      400,
      {
        code: 'Client specified an invalid argument',
        error: 'Incorrect API key provided: xa***90. You can obtain an API key from https://console.x.ai.',
      },
      'auth',
      false,
    ],
    [400, { code: 'Client specified an invalid argument', error: 'Invalid request.' }, 'bad_request', false],
    [401, { error: 'Unauthenticated.' }, 'auth', false],
    [
      403,
      {
        error:
          'Your newly created team does not have any credits yet. You can purchase credits on https://console.x.ai.',
      },
      'quota',
      false,
    ],
    [
      429,
      {
        code: 'Some resource has been exhausted',
        error: 'Your team has either used all available credits or reached its monthly spending limit.',
      },
      'quota',
      false,
    ],
    [429, { code: 'Some resource has been exhausted', error: 'Too many requests.' }, 'rate_limited', true],
    [404, { error: 'The model does not exist or your team does not have access to it.' }, 'upstream', false],
    [410, { error: 'Live search is deprecated.' }, 'upstream', false],
    [500, { error: 'Internal server error.' }, 'upstream', true],
    [503, { error: 'The service is currently unavailable.' }, 'upstream', true],
    [429, { error: { message: 'Rate limit reached', type: 'rate_limit_error' } }, 'rate_limited', true],
  ] as const)('HTTP %i %j → %s', (status, body, kind, retryable) => {
    expect(mapGrokError(errorResponse(status, body))).toMatchObject({ kind, retryable, status, provider: 'grok' })
  })

  it('never echoes the key', () => {
    const key = 'xai-abcdefghijklmnopqrstuvwxyz0123456789'
    const err = mapGrokError(errorResponse(400, { error: `Incorrect API key provided: ${key}.` }), [key])
    expect(err.message).not.toContain(key)
    expect(err.kind).toBe('auth')
  })

  it('passes Retry-After on', () => {
    expect(mapGrokError(errorResponse(429, { error: 'Too many requests.' }, 2000))).toMatchObject({
      retryAfterMs: 2000,
    })
  })
})
