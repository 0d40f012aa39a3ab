import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { engineOptionsFromEnv } from './engine-options.js'

describe('engineOptionsFromEnv', () => {
  it('writes key state behind the calls: set returns at once, settled() waits for the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sl-cli-options-'))
    const options = engineOptionsFromEnv({ SEARCH_LAYER_CACHE_DIR: dir }, { cache: false, providers: [] })
    const file = join(dir, 'key-state.json')
    const learned = { limits: { learnedAt: Date.now(), perSecond: 1 } }
    await options.keyState!.set('brave', 'abc123', learned)
    // Returned before the file system was even asked.
    expect(existsSync(file)).toBe(false)
    await options.keyState!.set('exa', 'def456', { restUntil: Date.now() + 60_000 })
    // Reads wait for the writes before them.
    expect(await options.keyState!.get('brave', 'abc123')).toEqual(learned)
    await options.settled()
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
    expect(Object.keys(stored).sort()).toEqual(['brave:abc123', 'exa:def456'])
  })

  it("keeps a one-shot command's key state in memory and writes it once, as it settles", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sl-cli-options-'))
    const options = engineOptionsFromEnv(
      { SEARCH_LAYER_CACHE_DIR: dir },
      { cache: false, providers: [], oneShot: true },
    )
    const file = join(dir, 'key-state.json')
    const learned = { limits: { learnedAt: Date.now(), perSecond: 1 } }
    await options.keyState!.set('brave', 'abc123', learned)
    await options.keyState!.set('exa', 'def456', { restUntil: Date.now() + 60_000 })
    expect(await options.keyState!.get('brave', 'abc123')).toEqual(learned)
    expect(existsSync(file)).toBe(false)
    await options.settled()
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
    expect(Object.keys(stored).sort()).toEqual(['brave:abc123', 'exa:def456'])
  })

  it('settles when a write fails, which only loses what it would have remembered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sl-cli-options-'))
    // A file where the cache directory would be: nothing can be written below it.
    const blocked = join(dir, 'not-a-dir')
    writeFileSync(blocked, '')
    for (const oneShot of [false, true]) {
      const options = engineOptionsFromEnv(
        { SEARCH_LAYER_CACHE_DIR: blocked },
        { cache: false, providers: [], oneShot },
      )
      await expect(options.keyState!.set('brave', 'abc123', { restUntil: Date.now() + 1000 })).resolves.toBeUndefined()
      await expect(options.settled()).resolves.toBeUndefined()
      expect(existsSync(join(blocked, 'key-state.json'))).toBe(false)
    }
  })
})
