import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it, vi } from 'vitest'

// A search builds only the schemas it parses with. The request schemas (what the tests check the built requests
// against, and the types' source) are never loaded; the error schemas (lazySchema) are built with the first error.
const probe = vi.hoisted(() => ({ requestSchemasLoaded: false, lazySchemasBuilt: 0 }))
vi.mock('./request-schema.js', async (importOriginal) => {
  probe.requestSchemasLoaded = true
  return importOriginal()
})
vi.mock('@search-layer/core', async (importOriginal) => {
  const core = await importOriginal<typeof import('@search-layer/core')>()
  const lazySchema = <T>(build: () => T) =>
    core.lazySchema(() => {
      probe.lazySchemasBuilt++
      return build()
    })
  return { ...core, lazySchema }
})

const emu = useEmulator()

describe('the brave search path', () => {
  it('loads no request schema and builds no error schema until an error answer comes', async () => {
    const { createBraveProvider } = await import('./client.js')
    const provider = createBraveProvider({ env: emu.env, retries: 0 })
    expect((await provider.search({ query: 'rust async runtime', num: 5 })).results.length).toBeGreaterThan(0)
    expect(probe).toEqual({ requestSchemasLoaded: false, lazySchemasBuilt: 0 })
    emu.fault('brave', { status: 401 })
    await expect(provider.search({ query: 'rust async runtime', num: 5 })).rejects.toMatchObject({ kind: 'auth' })
    expect(probe.lazySchemasBuilt).toBeGreaterThan(0)
    // The probe sees a load when there is one.
    await import('./request-schema.js')
    expect(probe.requestSchemasLoaded).toBe(true)
  })
})
