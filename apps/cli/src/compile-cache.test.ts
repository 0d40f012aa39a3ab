import { chmodSync, mkdirSync, mkdtempSync, statSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliCacheDir, enablePrivateCompileCache } from './compile-cache.js'

async function enableIn(env: Record<string, string>) {
  const calls: (string | undefined)[][] = []
  const dir = await enablePrivateCompileCache(env, { enableCompileCache: (...args) => calls.push(args) })
  return { dir, calls }
}

const fresh = () => join(mkdtempSync(join(tmpdir(), 'sl-compile-cache-')), 'search-layer')

describe('cliCacheDir', () => {
  it('is SEARCH_LAYER_CACHE_DIR, else search-layer under XDG_CACHE_HOME, else under ~/.cache', async () => {
    expect(cliCacheDir({ SEARCH_LAYER_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/c')
    expect(cliCacheDir({ XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe(join('/x', 'search-layer'))
    expect(cliCacheDir({ HOME: '/h' })).toBe(join('/h', '.cache', 'search-layer'))
    // Empty is unset (XDG Base Directory spec): never `search-layer` in the working directory.
    expect(cliCacheDir({ SEARCH_LAYER_CACHE_DIR: '', XDG_CACHE_HOME: '', HOME: '/h' })).toBe(
      join('/h', '.cache', 'search-layer'),
    )
    expect(cliCacheDir({ HOME: '' })).toBe(join(homedir(), '.cache', 'search-layer'))
  })
})

describe.skipIf(process.platform === 'win32')('enablePrivateCompileCache', () => {
  it("turns Node's compile cache on in an owner-only folder of the user's cache directory, not the temp dir", async () => {
    const cache = fresh()
    const { dir, calls } = await enableIn({ SEARCH_LAYER_CACHE_DIR: cache })
    expect(dir).toBe(join(cache, 'node-compile-cache'))
    expect(calls).toEqual([[dir]])
    expect(statSync(dir!).mode & 0o777).toBe(0o700)
  })

  it('leaves it off in a folder others can write to, or one that cannot be made', async () => {
    const cache = fresh()
    mkdirSync(join(cache, 'node-compile-cache'), { recursive: true })
    chmodSync(join(cache, 'node-compile-cache'), 0o777)
    expect(await enableIn({ SEARCH_LAYER_CACHE_DIR: cache })).toEqual({ dir: undefined, calls: [] })
    const readOnly = fresh()
    mkdirSync(readOnly, { recursive: true, mode: 0o500 })
    // root writes anywhere: the case is only real for other users.
    if (process.getuid?.() !== 0)
      expect(await enableIn({ SEARCH_LAYER_CACHE_DIR: join(readOnly, 'sub') })).toEqual({ dir: undefined, calls: [] })
  })

  it('leaves NODE_COMPILE_CACHE to Node, and is off with NODE_DISABLE_COMPILE_CACHE or SEARCH_LAYER_CODE_CACHE=off', async () => {
    expect(await enableIn({ NODE_COMPILE_CACHE: '/mine' })).toEqual({ dir: '/mine', calls: [[]] })
    const cache = fresh()
    expect((await enableIn({ SEARCH_LAYER_CACHE_DIR: cache, NODE_DISABLE_COMPILE_CACHE: '1' })).calls).toEqual([])
    expect((await enableIn({ SEARCH_LAYER_CACHE_DIR: cache, SEARCH_LAYER_CODE_CACHE: 'off' })).calls).toEqual([])
  })

  // The house's on/off words (core's switchValue): `0` once left the cache on, since only `off` was read.
  it.each(['off', 'OFF', 'false', '0', ' no-such-word '])('is off with SEARCH_LAYER_CODE_CACHE=%j', async (word) => {
    expect((await enableIn({ SEARCH_LAYER_CACHE_DIR: fresh(), SEARCH_LAYER_CODE_CACHE: word })).calls).toEqual([])
  })

  it.each(['on', 'true', '1', ''])('is on with SEARCH_LAYER_CODE_CACHE=%j', async (word) => {
    const cache = fresh()
    expect((await enableIn({ SEARCH_LAYER_CACHE_DIR: cache, SEARCH_LAYER_CODE_CACHE: word })).dir).toBe(
      join(cache, 'node-compile-cache'),
    )
  })

  it('does nothing where Node has no compile cache (Node 20)', async () => {
    expect(await enablePrivateCompileCache({ SEARCH_LAYER_CACHE_DIR: fresh() }, {})).toBeUndefined()
  })
})
