import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmulator } from '@search-layer/testkit'
import { describe, expect, it, vi } from 'vitest'

// The response types are inferred from the schemas through a type-only import: a process that only searches must
// never load the schema module. The probe records its loading and hands the real module through unchanged.
const probe = vi.hoisted(() => ({ schemasLoaded: false }))
vi.mock('../src/schemas.js', async (importOriginal) => {
  probe.schemasLoaded = true
  return importOriginal()
})

describe('the search path', () => {
  it('searches without loading @search-layer/engine/schemas', async () => {
    const emu = await startEmulator()
    try {
      const { createSearchLayer } = await import('../src/index.js')
      const home = mkdtempSync(join(tmpdir(), 'sl-schemas-off-'))
      const layer = createSearchLayer({ env: { ...emu.env, HOME: home }, cache: false, providerRetries: 0 })
      const res = await layer.search({ query: 'tokio runtime', maxQueries: 1 })
      expect(res.results.length).toBeGreaterThan(0)
      expect(probe.schemasLoaded).toBe(false)
    } finally {
      await emu.close()
    }
    // The probe sees a load when there is one.
    await import('../src/schemas.js')
    expect(probe.schemasLoaded).toBe(true)
  })
})
