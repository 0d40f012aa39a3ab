import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createFileUsageStore, monthOf } from './budget.js'
import { createFileCache, createMemoryCache, defaultCacheDir } from './cache.js'

describe.each([
  ['memory', () => createMemoryCache({ maxEntries: 10 })],
  ['file', () => createFileCache({ dir: mkdtempSync(join(tmpdir(), 'sl-cache-')) })],
])('%s cache', (_name, make) => {
  it('stores, expires and deletes', async () => {
    const cache = make()
    await cache.set('k', { a: 1 }, 60_000)
    expect(await cache.get('k')).toEqual({ a: 1 })
    await cache.set('short', 1, 1)
    await new Promise((r) => setTimeout(r, 10))
    expect(await cache.get('short')).toBeUndefined()
    await cache.delete('k')
    expect(await cache.get('k')).toBeUndefined()
  })
})

describe('file cache', () => {
  // Entries written by an earlier version stay found: a file's name is still the key's SHA-256.
  it("names an entry by the first 40 hex digits of its key's SHA-256", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sl-cache-'))
    await createFileCache({ dir }).set('brave|Bun vs Deno|ключ', 1, 60_000)
    const hash = createHash('sha256').update('brave|Bun vs Deno|ключ').digest('hex')
    expect(readdirSync(dir)).toEqual([`${hash.slice(0, 40)}.json`])
  })

  it('survives concurrent writers and leaves no temp files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sl-cache-'))
    const cache = createFileCache({ dir })
    await Promise.all(Array.from({ length: 20 }, (_, i) => cache.set('same', { i }, 60_000)))
    expect(await cache.get('same')).toMatchObject({ i: expect.any(Number) })
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it('creates its directories 0700 and its files 0600', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'sl-cache-')), 'new', 'cache')
    const cache = createFileCache({ dir })
    await cache.set('what the user searched for', { q: 1 }, 60_000)
    expect(modeOf(dir)).toBe(0o700)
    expect(modeOf(join(dir, '..'))).toBe(0o700)
    const files = readdirSync(dir)
    expect(files).toHaveLength(1)
    expect(modeOf(join(dir, files[0]!))).toBe(0o600)
  })

  it('leaves the mode of an existing directory alone, and replaces a wider file with a 0600 one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sl-cache-'))
    chmodSync(dir, 0o750)
    const cache = createFileCache({ dir })
    await cache.set('k', 1, 60_000)
    const file = join(dir, readdirSync(dir)[0]!)
    chmodSync(file, 0o644)
    await cache.set('k', 2, 60_000)
    expect(modeOf(dir)).toBe(0o750)
    expect(modeOf(file)).toBe(0o600)
  })

  it.runIf(process.platform !== 'win32')("a pipe or an oversized file in an entry's place is a miss", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sl-cache-'))
    const cache = createFileCache({ dir })
    const entryFile = (key: string) => join(dir, `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.json`)
    execFileSync('mkfifo', [entryFile('piped')]) // no writer: an unbounded read would wait for ever
    expect(await cache.get('piped')).toBeUndefined()
    const value = 'x'.repeat(32 * 1024 * 1024)
    writeFileSync(entryFile('huge'), JSON.stringify({ key: 'huge', expiresAt: Date.now() + 60_000, value }))
    expect(await cache.get('huge')).toBeUndefined()
    await cache.set('huge', 'small', 60_000) // the next write replaces it
    expect(await cache.get('huge')).toBe('small')
  })

  it('an unwritable directory is a miss, not a crash', async () => {
    // A directory path that runs through a regular file can never be created (ENOTDIR).
    const file = join(mkdtempSync(join(tmpdir(), 'sl-cache-')), 'plain-file')
    writeFileSync(file, 'x')
    const cache = createFileCache({ dir: join(file, 'cache') })
    await cache.set('k', 1, 1000)
    expect(await cache.get('k')).toBeUndefined()
  })

  it('defaults to SEARCH_LAYER_CACHE_DIR, else XDG, else ~/.cache', () => {
    expect(defaultCacheDir({ SEARCH_LAYER_CACHE_DIR: '/x' })).toBe('/x')
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/xdg' })).toBe('/xdg/search-layer')
    expect(defaultCacheDir({ HOME: '/home/me' })).toBe('/home/me/.cache/search-layer')
    // Empty is unset (XDG Base Directory spec): never `search-layer` in the working directory.
    expect(defaultCacheDir({ XDG_CACHE_HOME: '', HOME: '/home/me' })).toBe('/home/me/.cache/search-layer')
    expect(defaultCacheDir({ SEARCH_LAYER_CACHE_DIR: '', XDG_CACHE_HOME: '', HOME: '' })).toBe(
      join(homedir(), '.cache', 'search-layer'),
    )
  })
})

describe('file usage store', () => {
  it('counts per provider and month across instances', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sl-usage-')), 'usage.json')
    const a = createFileUsageStore({ file })
    await Promise.all([
      a.increment('brave', '2026-11', 1),
      a.increment('brave', '2026-11', 2),
      a.increment('exa', '2026-11', 1),
    ])
    const b = createFileUsageStore({ file })
    expect(await b.get('brave', '2026-11')).toBe(3)
    expect(await b.get('exa', '2026-11')).toBe(1)
    expect(await b.get('brave', '2026-12')).toBe(0)
    expect(monthOf(new Date('2026-11-30T23:59:59Z'))).toBe('2026-11')
  })

  it.runIf(process.platform !== 'win32')(
    "counts from zero over a pipe in the file's place, then replaces it",
    async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'sl-usage-')), 'usage.json')
      execFileSync('mkfifo', [file]) // no writer: an unbounded read would wait for ever
      expect(await createFileUsageStore({ file }).increment('brave', '2026-11', 2)).toBe(2)
      expect(statSync(file).isFile()).toBe(true)
      expect(await createFileUsageStore({ file }).get('brave', '2026-11')).toBe(2)
    },
  )

  it('writes its file 0600 in a 0700 directory', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sl-usage-')), 'state', 'usage.json')
    await createFileUsageStore({ file }).increment('brave', '2026-11', 1)
    expect(modeOf(file)).toBe(0o600)
    expect(modeOf(join(file, '..'))).toBe(0o700)
  })
})

const modeOf = (path: string) => statSync(path).mode & 0o777
