import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSearchLayer } from '@search-layer/engine'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { toolDefinitions } from './definitions.js'
import { createToolExecutors } from './executors.js'
import { toolJsonSchema } from './json-schema.js'

const emu = useEmulator()

// A fresh layer per call: no cache or circuit state carries one case's answer into the next.
const webSearch = (args: Record<string, unknown>) => {
  const env = { ...emu.env, HOME: mkdtempSync(join(tmpdir(), 'sl-tools-wait-')), SEARCH_LAYER_KEYLESS: 'off' }
  const layer = createSearchLayer({ env, rateLimits: false, providerRetries: 0 })
  return createToolExecutors({ layer, env }).web_search(args)
}
type Providers = Record<string, { status: string; ms?: number }>
const providersOf = (data: unknown) => (data as { providers: Providers }).providers
const SEARCH = { query: 'react hooks vs vue composition api' }

describe('web_search wait and patience_ms', () => {
  it('settled (the default): a slow engine is reported late, not failed, and the search does not wait for it', async () => {
    emu.latency('grok', 3_000)
    const res = await webSearch(SEARCH)
    expect(res.isError).toBeUndefined()
    const providers = providersOf(res.data)
    expect(providers.grok).toMatchObject({ status: 'late' })
    for (const name of ['brave', 'exa', 'tavily']) expect(providers[name]!.status).toBe('ok')
    expect(res.content).toMatch(/grok not waited for \(still searching after \d+ ms\)/)
  })

  it('wait "all" waits for the slow engine; a long patience_ms gives it the time it needs', async () => {
    emu.latency('grok', 1_000)
    const all = await webSearch({ ...SEARCH, wait: 'all' })
    expect(providersOf(all.data).grok!.status).toBe('ok')
    const patient = await webSearch({ ...SEARCH, patience_ms: 30_000 })
    expect(providersOf(patient.data).grok!.status).toBe('ok')
    const impatient = await webSearch({ ...SEARCH, patience_ms: 0 })
    expect(providersOf(impatient.data).grok!.status).toBe('late')
  })

  it.each([
    [{ patience_ms: -1 }, /patience_ms: must be between 0 and 120000 ms/],
    [{ patience_ms: 120_001 }, /patience_ms: must be between 0 and 120000 ms/],
    [{ patience_ms: 2.5 }, /patience_ms: must be a whole number of milliseconds/],
    [{ wait: 'never' }, /wait: .*"settled".*"all"/],
  ])('refuses %j with an error naming the field and what it allows, before any engine is called', async (bad, said) => {
    const before = emu.requests.length
    const res = await webSearch({ ...SEARCH, ...bad })
    expect(res.isError).toBe(true)
    expect(res.content).toMatch(said)
    expect(emu.requests.length).toBe(before)
  })

  it('advertises both fields, with their range and choices, in the JSON Schema agents see', () => {
    const webSearchTool = toolDefinitions(['brave', 'grok']).find((t) => t.name === 'web_search')!
    const { properties } = toolJsonSchema(webSearchTool.inputSchema) as {
      properties: Record<string, { enum?: string[]; minimum?: number; maximum?: number; description?: string }>
    }
    expect(properties.wait).toMatchObject({ enum: ['settled', 'all'] })
    expect(properties.wait!.description).toMatch(/late/)
    expect(properties.patience_ms).toMatchObject({ minimum: 0, maximum: 120_000 })
    expect(properties.patience_ms!.description).toMatch(/0-120000 ms/)
  })
})
