import { ProviderResponseSchema } from '@search-layer/core'
import { providerFailure, readRecorded, TAG_OR_ENTITY } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { type GrokMode, createGrokProvider } from './client.js'

// Real xAI answers captured by other projects; provenance and licenses in test/fixtures/recorded/README.md.
const recorded = (name: string) => readRecorded(new URL('../test/fixtures/recorded/', import.meta.url), name)

const KEY = 'xai-recorded-replay-key-0123456789abcdef'

const emu = useEmulator()

function replay(name: string, { mode = 'responses', body }: { mode?: GrokMode; body?: string } = {}) {
  const r = recorded(name)
  emu.fault('grok', { reply: { status: r.status, ...(r.headers && { headers: r.headers }), body: body ?? r.body } })
  // The recording's own model, so the token prices match what was billed.
  return createGrokProvider({ apiKey: KEY, baseUrl: emu.urls.grok, model: 'grok-4-fast-reasoning', mode, retries: 0 })
}

describe('recorded 200: vercel-ai--responses-web-search-2025-11-03 (Responses API, web_search tool)', () => {
  const name = 'vercel-ai--responses-web-search-2025-11-03'
  const output = recorded(name).json.output as {
    type: string
    content?: { text: string; annotations: { url: string }[] }[]
  }[]
  const part = output.find((o) => o.type === 'message')!.content![0]!

  it('keeps every cited URL, the answer and a cost that counts the web search', async () => {
    const res = await replay(name).search({ query: 'what is xAI', num: 10 })
    expect(ProviderResponseSchema.parse(res)).toMatchObject({ dropped: 0 })
    expect(res.results.map((r) => r.url)).toEqual(part.annotations.map((a) => a.url))
    for (const r of res.results) {
      expect(r.title.length).toBeGreaterThan(0)
      expect(r.title).not.toMatch(TAG_OR_ENTITY)
      expect(r.snippet).not.toMatch(TAG_OR_ENTITY)
    }
    expect(res.answer).toBe(part.text)
    // usage: 1,941 input and 583 output tokens at grok-4-fast prices, plus the one `web_search_call` in `output`
    // (the recording has num_server_side_tools_used: 1 but no server_side_tool_usage_details).
    expect(res.cost).toEqual({ usd: (1941 * 0.2 + 583 * 0.5) / 1e6 + 0.005, basis: 'estimated' })
  })

  it('tolerates output items and fields xAI may add later', async () => {
    const json = recorded(name).json
    const grown = {
      ...json,
      background: false,
      output: [{ type: 'x_search_call', id: 'xs_1', status: 'completed' }, ...(json.output as object[])],
    }
    const res = await replay(name, { body: JSON.stringify(grown) }).search({ query: 'what is xAI', num: 10 })
    expect(res.results).toHaveLength(part.annotations.length)
  })
})

describe('recorded 200: vercel-ai--chat-completions-grok-3-mini-text (chat mode, no search)', () => {
  it('a plain one-word answer is reported as bad_response, not as zero results', async () => {
    const err = await providerFailure(
      replay('vercel-ai--chat-completions-grok-3-mini-text', { mode: 'chat' }).search({ query: 'x' }),
    )
    expect(err).toMatchObject({ kind: 'bad_response', provider: 'grok' })
    expect(err.message).toContain('no JSON result list')
  })
})

describe('recorded error (beeai-framework issue report)', () => {
  it('HTTP 400 with a URL-encoded "Incorrect API key" is auth, with xAI’s words decoded', async () => {
    const err = await providerFailure(replay('issue--error-400-incorrect-api-key').search({ query: 'x' }))
    expect(err).toMatchObject({ kind: 'auth', retryable: false, status: 400 })
    expect(err.message).toContain('check XAI_API_KEY')
    expect(err.message).toContain('Incorrect API key provided')
    expect(err.message).toContain('You can obtain an API key from https://console.x.ai.')
    expect(err.message).not.toContain('%20')
    expect(JSON.stringify(err)).not.toContain(KEY)
    expect(emu.count('grok')).toBe(1)
  })
})
