import { startEmulator } from '@search-layer/testkit'
import { describe, expect, it, vi } from 'vitest'

// `ReadablePage` is inferred from its schema through a type-only import: a process that only fetches must never load
// the schema module. The probe records its loading and hands the real module through unchanged.
const probe = vi.hoisted(() => ({ schemasLoaded: false }))
vi.mock('./schemas.js', async (importOriginal) => {
  probe.schemasLoaded = true
  return importOriginal()
})

describe('the fetch path', () => {
  it('reads a page without loading @search-layer/page-fetch/schemas', async () => {
    const emu = await startEmulator()
    try {
      const { fetchPage } = await import('./index.js')
      const page = await fetchPage(`${emu.urls.pages}/article`, { allowPrivateHosts: true })
      expect(page.readerable).toBe(true)
      expect(probe.schemasLoaded).toBe(false)
    } finally {
      await emu.close()
    }
    // The probe sees a load when there is one.
    await import('./schemas.js')
    expect(probe.schemasLoaded).toBe(true)
  })
})
