import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ProviderDefinition, type ProviderResponse, RESULT_LIMITS } from '@search-layer/core'
import { describe, expect, it } from 'vitest'
import { type SearchStreamEvent, createSearchLayer } from '../src/index.js'
import { pluginProvider } from '@search-layer/testkit'

// What a careless or hostile plug-in can return: the engine must not pass any of it on as it came.
const HOSTILE: unknown[] = [
  { title: 'xss', url: 'javascript:alert(1)', snippet: 's' },
  { title: 'data', url: 'data:text/html,<script>alert(1)</script>', snippet: 's' },
  { title: 'vb', url: 'vbscript:msgbox(1)', snippet: 's' },
  { title: 'file', url: 'file:///etc/passwd', snippet: 's' },
  { title: 'relative', url: '/just/a/path', snippet: 's' },
  { title: 'long', url: `https://long.example/${'a'.repeat(RESULT_LIMITS.url)}`, snippet: 's' },
  null,
  'https://string.example/',
  {
    title: '<script>alert("t")</script><b>Real</b> &amp; <i>title</i>\u0007\u202e',
    url: 'https://user:pass@good.example/page',
    snippet: `<style>p{}</style>Snippet &lt;b&gt; ${'x'.repeat(3000)}`,
    publishedAt: 'not a date',
    provider: 'brave',
    rank: -3,
    providerScore: Number.NaN,
    extra: 'not an object',
  },
  { title: 'Fine', url: 'http://fine.example/', snippet: 'ok', publishedAt: '2025-06-04T00:00:00.000Z', rank: 2 },
]

const hostile: ProviderDefinition = {
  ...pluginProvider('hostile', () => ({
    results: HOSTILE as ProviderResponse['results'],
    answer: 'An answer\u0000 with\nlines\u202e.',
  })),
  // So its written answer is the one the response carries.
  capabilities: ['web', 'answer'],
}

const layerOf = (...providers: ProviderDefinition[]) =>
  createSearchLayer({ env: { HOME: mkdtempSync(join(tmpdir(), 'sl-checks-')) }, providers, cache: false })
const search = (...providers: ProviderDefinition[]) =>
  layerOf(...providers).search({ query: 'checks', sources: providers.map((p) => p.id), intent: 'none', maxQueries: 1 })

describe('every provider result is checked before it enters a search', () => {
  it('drops non-http(s) URLs, over-long URLs and non-objects, cleans the rest, and counts the drops in a warning', async () => {
    const res = await search(hostile)
    expect(res.results.map((r) => r.url).sort()).toEqual(['http://fine.example/', 'https://good.example/page'])
    const cleaned = res.results.find((r) => r.url === 'https://good.example/page')!
    expect(cleaned.title).toBe('Real & title')
    expect(cleaned.snippet.startsWith('Snippet <b> xxx')).toBe(true)
    expect(cleaned.snippet).toHaveLength(RESULT_LIMITS.snippet)
    expect(cleaned.snippet.endsWith('…')).toBe(true)
    expect(cleaned.published_date).toBeNull()
    expect(cleaned.sources).toEqual(['hostile'])
    expect(res.answer).toBe('An answer with\nlines.')
    expect(res.providers.hostile).toMatchObject({ status: 'ok', results: 2 })
    expect(res.warnings).toContain(
      `hostile: dropped 8 results that failed validation (5 no http(s) URL, 1 a URL over ${RESULT_LIMITS.url} characters, 2 not a result object)`,
    )
    expect(JSON.stringify(res)).not.toMatch(/javascript:|data:text|<script|user:pass|\u0007|\u202e/)
  })

  it('checks what a stream sends too', async () => {
    const events: SearchStreamEvent[] = []
    for await (const event of layerOf(hostile).stream({ query: 'checks', sources: ['hostile'], intent: 'none' }))
      events.push(event)
    const urls = events.flatMap((e) => (e.type === 'results' ? e.results.map((r) => r.url) : []))
    expect(urls.length).toBeGreaterThan(0)
    expect(urls.every((u) => u === 'http://fine.example/' || u === 'https://good.example/page')).toBe(true)
  })

  it('fails a provider whose answer has no results list, naming it, and keeps the search going', async () => {
    const broken = pluginProvider('broken', () => ({ results: 'none' }) as unknown as ProviderResponse)
    const fine = pluginProvider('fine', () => ({
      results: [
        { title: 'F', url: 'https://fine.example/', snippet: '', publishedAt: null, provider: 'fine', rank: 1 },
      ],
    }))
    const res = await search(broken, fine)
    expect(res.providers.broken).toMatchObject({
      status: 'error',
      error: { kind: 'bad_response', message: 'broken returned no results list (got string); expected an array' },
    })
    expect(res.results.map((r) => r.url)).toEqual(['https://fine.example/'])
    expect(res.warnings.some((w) => w.includes('failed validation'))).toBe(false)
  })
})
