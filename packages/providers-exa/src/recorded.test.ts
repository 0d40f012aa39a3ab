import { ProviderResponseSchema } from '@search-layer/core'
import { providerFailure, readRecorded, TAG_OR_ENTITY } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { createExaProvider } from './client.js'

// Real Exa answers captured by other projects; provenance and licenses in test/fixtures/recorded/README.md.
const recorded = (name: string) => readRecorded(new URL('../test/fixtures/recorded/', import.meta.url), name)

interface RecordedResult {
  url: string
  title: string | null
  publishedDate?: string
  highlights?: string[]
}

const KEY = 'exa-recorded-replay-key-0123456789'

const emu = useEmulator()

function replay(name: string, body?: string) {
  const r = recorded(name)
  emu.fault('exa', { reply: { status: r.status, ...(r.headers && { headers: r.headers }), body: body ?? r.body } })
  return createExaProvider({ apiKey: KEY, baseUrl: emu.urls.exa, retries: 0 })
}

describe.each([
  // crewAI cassettes: `contents.text` only, Cloudflare and x-ratelimit-* headers recorded.
  ['crewai--search-contents-text-1', { usd: 0.015, rateLimit: { limit: 450, remaining: 405, resetMs: 10_000 } }],
  ['crewai--search-contents-text-2', { usd: 0.015, rateLimit: { limit: 450, remaining: 410, resetMs: 10_000 } }],
  // pydantic-ai cassette: highlights, one result without publishedDate, `effectiveFilters` (not in the docs).
  ['pydantic-ai--exa-search-highlights', { usd: 0.007, rateLimit: undefined }],
])('recorded 200: %s', (name, expected) => {
  const results = recorded(name).json.results as RecordedResult[]

  it('keeps every result in Exa order with clean text, dates read, the reported cost and rate limits', async () => {
    // The clock reads 10 s before the recorded Date header, so the window's reset (a Unix time) is 10 s away.
    const recordedAtMs = Date.parse(recorded(name).headers?.Date ?? '2026-01-01T00:00:00Z')
    const res = await replay(name).search(
      { query: 'recorded', num: 100 },
      { now: () => new Date(recordedAtMs - 10_000) },
    )
    expect(ProviderResponseSchema.parse(res)).toMatchObject({ dropped: 0 })
    expect(res.results.map((r) => r.url)).toEqual(results.map((r) => r.url))
    for (const [i, r] of res.results.entries()) {
      const raw = results[i]!
      expect(r.title).toBe(raw.title?.replace(/\s+/g, ' ').trim() || new URL(raw.url).hostname.replace(/^www\./, ''))
      expect(r.title).not.toMatch(TAG_OR_ENTITY)
      expect(r.snippet).not.toMatch(TAG_OR_ENTITY)
      expect(r.snippet.length).toBeGreaterThan(40)
      expect(r.publishedAt).toBe(raw.publishedDate ? new Date(raw.publishedDate).toISOString() : null)
    }
    expect(res.cost).toEqual({ usd: expected.usd, basis: 'reported' })
    if (expected.rateLimit) expect(res.rateLimit).toMatchObject(expected.rateLimit)
    else expect(res.rateLimit).toBeUndefined()
  })

  it('tolerates fields Exa may add later', async () => {
    const json = recorded(name).json
    const grown = {
      ...json,
      context: 'a new top-level field',
      results: (json.results as object[]).map((r) => ({ ...r, subpages: [], entities: [{ type: 'company' }] })),
    }
    const res = await replay(name, JSON.stringify(grown)).search({ query: 'recorded', num: 100 })
    expect(res.results).toHaveLength(results.length)
  })
})

describe('recorded error (Composio issue report)', () => {
  it('HTTP 400 "x-api-key header is invalid" (no tag) is auth, with Exa’s words and the key hint', async () => {
    const err = await providerFailure(replay('issue--error-400-invalid-api-key-header').search({ query: 'x' }))
    expect(err).toMatchObject({ kind: 'auth', retryable: false, status: 400 })
    expect(err.message).toBe(
      'exa rejected the API key (HTTP 400): x-api-key header is invalid. Check EXA_API_KEY. ' +
        '[requestId d5e5493da34334e99493c1c40aea467a]',
    )
    expect(JSON.stringify(err)).not.toContain(KEY)
    // An auth error is not retried: one request only.
    expect(emu.count('exa')).toBe(1)
  })
})
