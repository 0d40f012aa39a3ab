import { ProviderResponseSchema } from '@search-layer/core'
import { providerFailure, readRecorded, TAG_OR_ENTITY } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { createBraveProvider } from './client.js'

// Real Brave answers captured by other projects; provenance and licenses in test/fixtures/recorded/README.md.
const recorded = (name: string) => readRecorded(new URL('../test/fixtures/recorded/', import.meta.url), name)

const KEY = 'BSArecorded-replay-key-0123456789'

const emu = useEmulator()

function replay(name: string, body?: string) {
  const r = recorded(name)
  emu.fault('brave', { reply: { status: r.status, ...(r.headers && { headers: r.headers }), body: body ?? r.body } })
  return createBraveProvider({ apiKey: KEY, baseUrl: emu.urls.brave, retries: 0 })
}

describe('recorded 200: sk--brave_what_is_the_semantic_kernel (Semantic Kernel test data)', () => {
  const name = 'sk--brave_what_is_the_semantic_kernel'
  const web = (recorded(name).json.web as { results: Record<string, unknown>[] }).results

  it('keeps every result in Brave order, with clean text and every page_age read', async () => {
    const res = await replay(name).search({ query: 'What is the Semantic Kernel?', num: 20 })
    expect(ProviderResponseSchema.parse(res)).toMatchObject({ dropped: 0 })
    expect(res.results.map((r) => r.url)).toEqual(web.map((w) => w.url))
    for (const [i, r] of res.results.entries()) {
      expect(r.title).not.toMatch(TAG_OR_ENTITY)
      expect(r.snippet).not.toMatch(TAG_OR_ENTITY)
      expect(r.snippet.length).toBeGreaterThan(40)
      const pageAge = web[i]!.page_age
      expect(r.publishedAt).toBe(typeof pageAge === 'string' ? new Date(`${pageAge}Z`).toISOString() : null)
    }
    // `&#x27;` and `<strong>` in the recorded descriptions come out as text.
    expect(res.results[0]!.snippet).toContain('combines prompts with existing APIs to perform actions. By')
    expect(res.results[0]!.snippet).toContain("translating the model's request")
    expect(res.results[1]!.snippet).toContain('code in Semantic Kernel, the kernel will always')
    expect(res.cost).toEqual({ usd: 0.005, credits: 1, basis: 'estimated' })
  })

  it('tolerates fields and sections Brave may add later', async () => {
    const json = recorded(name).json
    const web = json.web as { results: Record<string, unknown>[] }
    const grown = {
      ...json,
      rich: { type: 'rich', hint: { vertical: 'weather' } },
      web: { ...web, results: web.results.map((r) => ({ ...r, cluster_type: 'new', deep_results: { buttons: [] } })) },
    }
    const res = await replay(name, JSON.stringify(grown)).search({ query: 'What is the Semantic Kernel?', num: 20 })
    expect(res.results).toHaveLength(web.results.length)
  })
})

describe('recorded errors (ChatWise issue reports)', () => {
  it('422 VALIDATION with an empty meta is a parameter problem, not the key, and keeps Brave’s words', async () => {
    const err = await providerFailure(replay('issue--error-422-validation').search({ query: 'x' }))
    expect(err).toMatchObject({ kind: 'bad_request', retryable: false, status: 422, code: 'VALIDATION' })
    expect(err.message).toContain('Unable to validate request parameter(s).')
    expect(err.message).toContain('the key is not the problem')
    expect(err.message).not.toContain('check BRAVE_API_KEY')
    expect(err.message).not.toContain(KEY)
  })

  it('429 RATE_LIMITED says which plan, its per-second rate and the monthly quota used', async () => {
    const err = await providerFailure(replay('issue--error-429-rate-limited').search({ query: 'x' }))
    expect(err).toMatchObject({ kind: 'rate_limited', retryable: true, status: 429, code: 'RATE_LIMITED' })
    // No Retry-After or X-RateLimit-Reset in the recording: one slot of a 1 request/s plan.
    expect(err.retryAfterMs).toBe(1000)
    expect(err.message).toBe(
      'brave rate limit hit (HTTP 429 RATE_LIMITED): Request rate limit exceeded for plan. ' +
        'Plan "Free" allows 1 request per second (1 already used this second); 15 of 2,000 monthly requests used. ' +
        'Send at most 1 per second or upgrade the plan. Retry after 1s.',
    )
    expect(JSON.stringify(err)).not.toContain(KEY)
  })
})
