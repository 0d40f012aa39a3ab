import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it, vi } from 'vitest'

// Counts evaluations of htmlparser2: the factory runs when something first imports it.
const parser = vi.hoisted(() => ({ loads: 0 }))
vi.mock('htmlparser2', async (importOriginal) => {
  parser.loads++
  return importOriginal()
})

const emu = useEmulator({ resetEachTest: false })

describe('the HTML parser loads with the first page, not with the package', () => {
  it('imports the package and builds the provider without htmlparser2; the first search loads it', async () => {
    const { createDuckDuckGoProvider, duckduckgoDefinition } = await import('./index.js')
    const provider = createDuckDuckGoProvider({ baseUrl: emu.urls.duckduckgo, minIntervalMs: 0 })
    expect(duckduckgoDefinition.id).toBe('duckduckgo')
    expect(parser.loads).toBe(0)
    const res = await provider.search({ query: 'rust async runtime', num: 5 })
    expect(res.results.length).toBeGreaterThan(0)
    expect(parser.loads).toBe(1)
  })
})
