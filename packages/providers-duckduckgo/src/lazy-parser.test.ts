import { type Emulator, startEmulator } from '@search-layer/testkit'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

// Counts evaluations of linkedom: the factory runs when something first imports it.
const linkedom = vi.hoisted(() => ({ loads: 0 }))
vi.mock('linkedom', async (importOriginal) => {
  linkedom.loads++
  return importOriginal()
})

let emu: Emulator
beforeAll(async () => {
  emu = await startEmulator()
})
afterAll(() => emu.close())

describe('the HTML parser loads with the first page, not with the package', () => {
  it('imports the package and builds the provider without linkedom; the first search loads it', async () => {
    const { createDuckDuckGoProvider, duckduckgoDefinition } = await import('./index.js')
    const provider = createDuckDuckGoProvider({ baseUrl: emu.urls.duckduckgo, minIntervalMs: 0 })
    expect(duckduckgoDefinition.id).toBe('duckduckgo')
    expect(linkedom.loads).toBe(0)
    const res = await provider.search({ query: 'rust async runtime', num: 5 })
    expect(res.results.length).toBeGreaterThan(0)
    expect(linkedom.loads).toBe(1)
  })
})
