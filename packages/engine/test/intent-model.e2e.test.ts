import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError } from '@search-layer/core'
import { useEmulator } from '@search-layer/testkit/vitest'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type SearchLayerOptions, createSearchLayer } from '../src/index.js'

const emu = useEmulator()
let home: string
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'sl-intent-model-'))
})
beforeEach(() => {
  emu.llm.respond(null)
})

const VARIABLES = [
  'TAVILY_API_KEY',
  'TAVILY_API_URL',
  'SEARCH_LAYER_LLM_URL',
  'SEARCH_LAYER_LLM_KEY',
  'SEARCH_LAYER_LLM_MODEL',
] as const
// One engine and the model; keyless verticals off, so the only calls are Tavily's and the model's.
const layer = (env: Record<string, string | undefined> = {}, options: SearchLayerOptions = {}) =>
  createSearchLayer({
    env: {
      ...Object.fromEntries(VARIABLES.map((name) => [name, emu.env[name]])),
      HOME: home,
      SEARCH_LAYER_KEYLESS: 'off',
      SEARCH_LAYER_INTENT_LLM: 'on',
      ...env,
    },
    cache: false,
    ...options,
  })
const verdict =
  (intent: string, confidence = 0.9) =>
  () =>
    JSON.stringify({ intent, confidence })
// Nonsense has no intent signal and the learned classifier cannot place it either: the classification is unsure.
// ("RISC-V" no longer serves: the learned classifier places a bare topic as exploratory.)
const UNSURE = 'zzqx vvbn'

describe('the intent model, asked when the rules are unsure', () => {
  it("classifies an unsure query, and the search runs on the model's intent", async () => {
    emu.llm.respond(verdict('factual'))
    const res = await layer().search({ query: UNSURE, deadlineMs: 5000 })
    expect(emu.count('llm')).toBe(1)
    expect(res).toMatchObject({ intent: 'factual', intent_source: 'auto', intent_by: 'llm', confidence: 0.9 })
    expect(res.results.length).toBeGreaterThan(0)
    expect(res.warnings.join(' ')).not.toMatch(/intent model/)
    expect(JSON.stringify(res)).not.toContain(emu.env.SEARCH_LAYER_LLM_KEY!)
  })

  it('says who decided in the streamed plan', async () => {
    emu.llm.respond(verdict('tutorial'))
    for await (const event of layer().stream({ query: UNSURE, deadlineMs: 5000 }))
      if (event.type === 'plan') {
        expect(event).toMatchObject({ intent: 'tutorial', intent_by: 'llm' })
        expect(event.intent_why).toMatch(/the rules were unsure, so the intent model decided "tutorial"/)
      }
  })

  it('is not asked when the rules are sure, or the caller set the intent', async () => {
    emu.llm.respond(verdict('factual'))
    const sure = await layer().search({ query: 'Bun vs Deno', deadlineMs: 5000 })
    expect(sure).toMatchObject({ intent: 'comparison', intent_by: 'rules' })
    const set = await layer().search({ query: UNSURE, intent: 'news', deadlineMs: 5000 })
    expect(set).toMatchObject({ intent: 'news', intent_source: 'explicit' })
    expect(set).not.toHaveProperty('intent_by')
    expect(emu.count('llm')).toBe(0)
  })

  it('waits at most a fifth of the deadline for a slow model, then the rules decide', async () => {
    emu.llm.respond(verdict('factual'))
    emu.fault('llm', { latencyMs: 3000 })
    const res = await layer().search({ query: UNSURE, deadlineMs: 4000 })
    expect(res).toMatchObject({ intent: 'exploratory', intent_by: 'rules' })
    expect(res.warnings).toContain(
      'the intent model did not answer usably (timeout) within 800 ms: the rules classified the query',
    )
    expect(res.providers.tavily!.status).toBe('ok')
  })

  it('falls back to the rules on an answer that is not a verdict', async () => {
    emu.llm.respond(() => 'I think it is probably about hardware.')
    const res = await layer().search({ query: UNSURE, deadlineMs: 5000 })
    expect(res).toMatchObject({ intent: 'exploratory', intent_by: 'rules' })
    expect(res.warnings).toContainEqual(expect.stringMatching(/intent model did not answer usably \(bad_response\)/))
  })

  it('is never asked unless switched on, and a bad switch value is a clear error', async () => {
    const off = await layer({ SEARCH_LAYER_INTENT_LLM: undefined }).search({ query: UNSURE, deadlineMs: 5000 })
    expect(off).toMatchObject({ intent: 'exploratory', intent_by: 'rules' })
    expect(emu.count('llm')).toBe(0)
    const wrong = layer({ SEARCH_LAYER_INTENT_LLM: 'sometimes' }).search({ query: UNSURE })
    await expect(wrong).rejects.toThrow(ConfigError)
    await expect(wrong).rejects.toThrow(/SEARCH_LAYER_INTENT_LLM="sometimes" is not allowed; use on or off/)
  })

  it('says so when switched on without a model to ask', async () => {
    const res = await layer({ SEARCH_LAYER_LLM_URL: undefined }).search({ query: UNSURE, deadlineMs: 5000 })
    expect(res.intent_by).toBe('rules')
    expect(res.warnings).toContain(
      'SEARCH_LAYER_INTENT_LLM is on but SEARCH_LAYER_LLM_URL is not set: the rules classified the query',
    )
  })

  it('takes an endpoint as an option, whatever the environment says', async () => {
    emu.llm.respond(verdict('resource'))
    const endpoint = {
      url: emu.env.SEARCH_LAYER_LLM_URL!,
      apiKey: emu.env.SEARCH_LAYER_LLM_KEY!,
      model: emu.env.SEARCH_LAYER_LLM_MODEL!,
    }
    const res = await layer({ SEARCH_LAYER_INTENT_LLM: 'off' }, { intentModel: endpoint }).search({
      query: UNSURE,
      deadlineMs: 5000,
    })
    expect(res).toMatchObject({ intent: 'resource', intent_by: 'llm' })
  })
})
