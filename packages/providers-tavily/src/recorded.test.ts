import { ProviderResponseSchema } from '@search-layer/core'
import { readRecorded, TAG_OR_ENTITY } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { createTavilyProvider } from './client.js'

// Real Tavily answers captured by other projects; provenance and licenses in test/fixtures/recorded/README.md.
const recorded = (name: string) => readRecorded(new URL('../test/fixtures/recorded/', import.meta.url), name)

interface RecordedResult {
  url: string
  title: string
  content: string
  score: number
  published_date?: string
}

const KEY = 'tvly-recorded-replay-key-0123456789'

const emu = useEmulator()

function replay(name: string, searchDepth: 'basic' | 'advanced', body?: string) {
  const r = recorded(name)
  emu.fault('tavily', { reply: { status: r.status, ...(r.headers && { headers: r.headers }), body: body ?? r.body } })
  return createTavilyProvider({ apiKey: KEY, baseUrl: emu.urls.tavily, searchDepth, retries: 0 })
}

describe.each([
  // Semantic Kernel test data: answer, images with descriptions, raw_content.
  ['sk--tavily_what_is_the_semantic_kernel', 'basic', 1],
  // pydantic-ai cassette: request_id, markdown-ish content.
  ['pydantic-ai--tavily-basic-search', 'basic', 1],
  // openllmetry cassette: the wire bytes of an advanced search (2 credits).
  ['openllmetry--tavily-advanced-openllmetry', 'advanced', 2],
] as const)('recorded 200: %s', (name, depth, credits) => {
  const json = recorded(name).json
  const results = json.results as RecordedResult[]

  it('keeps every result in Tavily order with clean text, scores, the answer and the cost', async () => {
    const res = await replay(name, depth).search({ query: String(json.query), num: 20 })
    expect(ProviderResponseSchema.parse(res)).toMatchObject({ dropped: 0 })
    expect(res.results.map((r) => r.url)).toEqual(results.map((r) => r.url))
    for (const [i, r] of res.results.entries()) {
      const raw = results[i]!
      expect(r.title).not.toMatch(TAG_OR_ENTITY)
      expect(r.snippet).not.toMatch(TAG_OR_ENTITY)
      expect(r.snippet.length).toBeGreaterThan(40)
      expect(r.providerScore).toBe(raw.score)
      expect(r.publishedAt).toBe(raw.published_date ? new Date(raw.published_date).toISOString() : null)
    }
    const answer = typeof json.answer === 'string' ? json.answer.trim() : undefined
    expect(res.answer).toBe(answer || undefined)
    expect(res.cost).toEqual({ credits, basis: 'estimated' })
  })

  it('tolerates fields Tavily may add later', async () => {
    const grown = {
      ...json,
      auto_parameters: { topic: 'general' },
      usage: { credits, extra: 'new' },
      results: results.map((r) => ({ ...r, images: [], chunk_ids: [1] })),
    }
    const res = await replay(name, depth, JSON.stringify(grown)).search({ query: String(json.query), num: 20 })
    expect(res.results).toHaveLength(results.length)
    expect(res.cost).toEqual({ credits, basis: 'reported' })
  })
})
