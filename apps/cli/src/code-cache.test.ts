import { chownSync, mkdtempSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it, vi } from 'vitest'
import { runCached } from './code-cache.js'

interface Bundle {
  greet(name: string): string
  later(): Promise<string>
}

// A CommonJS bundle as tsup writes one: `exports`, `require`, and `import.meta.url` and a plug-in's `import()`
// under their names in tsup.config.ts.
const BUNDLE = `"use strict";
const { join } = require('node:path')
exports.greet = (name) => 'hello ' + name + ' from ' + join('a', 'b') + ' at ' + __importMetaUrl
exports.later = () => __importModule('node:path').then((path) => path.basename(__filename))
`

function setup(source = BUNDLE) {
  const dir = mkdtempSync(join(tmpdir(), 'sl-code-cache-'))
  const file = join(dir, 'greet.cjs')
  // Unique text: V8 keeps scripts compiled in this process and would take one from there, not from the cache.
  writeFileSync(file, `${source}// ${dir}\n`)
  const cacheDir = join(dir, 'cache')
  return { file, url: pathToFileURL(file), cacheDir, env: { SEARCH_LAYER_CACHE_DIR: cacheDir } }
}

const codeDir = (cacheDir: string) => join(cacheDir, 'code')
const cacheFiles = (cacheDir: string) => {
  try {
    return readdirSync(codeDir(cacheDir)).map((name) => join(codeDir(cacheDir), name))
  } catch {
    return []
  }
}

const fallback = () => Promise.reject(new Error('the bundle is there; no fallback'))
const greet = (m: Bundle) => Promise.resolve(m.greet('you'))

describe('runCached', () => {
  it('runs the bundle, then keeps its code cache (0600) and uses it unchanged in the next run', async () => {
    const { url, cacheDir, env } = setup()
    expect(await runCached<Bundle, string>(url, env, fallback, greet)).toBe(`hello you from a/b at ${url.href}`)
    const [file] = cacheFiles(cacheDir)
    expect(file).toMatch(/greet-[0-9a-f]{16}\.bin$/)
    expect(statSync(file!).mode & 0o777).toBe(0o600)
    const written = readFileSync(file!)
    expect(await runCached<Bundle, string>(url, env, fallback, (m) => m.later())).toBe('greet.cjs')
    // Accepted, so not written again.
    expect(readFileSync(file!).equals(written)).toBe(true)
    expect(cacheFiles(cacheDir)).toHaveLength(1)
  })

  it('ignores a damaged cache file, still runs, and writes a good one', async () => {
    const { url, cacheDir, env } = setup()
    await runCached<Bundle, string>(url, env, fallback, greet)
    const [file] = cacheFiles(cacheDir)
    const good = readFileSync(file!)
    for (const damaged of [
      Buffer.from('not a cache at all'),
      good.subarray(0, good.length - 100),
      Buffer.concat([good.subarray(0, 200), Buffer.from([good[200]! ^ 0xff]), good.subarray(201)]),
    ]) {
      writeFileSync(file!, damaged)
      expect(await runCached<Bundle, string>(url, env, fallback, greet)).toBe(`hello you from a/b at ${url.href}`)
      expect(readFileSync(file!).equals(good)).toBe(true)
    }
  })

  // Only root can give a file to another user.
  it.skipIf(process.getuid?.() !== 0)('ignores a cache file another user owns, and replaces it', async () => {
    const { url, cacheDir, env } = setup()
    await runCached<Bundle, string>(url, env, fallback, greet)
    const [file] = cacheFiles(cacheDir)
    chownSync(file!, 65534, 65534)
    expect(await runCached<Bundle, string>(url, env, fallback, greet)).toBe(`hello you from a/b at ${url.href}`)
    expect(statSync(file!).uid).toBe(0)
  })

  it('keys the cache by the bundle: a changed bundle gets its own file, and an old one is removed', async () => {
    const { file: bundle, url, cacheDir, env } = setup()
    await runCached<Bundle, string>(url, env, fallback, greet)
    const [first] = cacheFiles(cacheDir)
    const weekAgo = new Date(Date.now() - 8 * 24 * 3_600_000)
    utimesSync(first!, weekAgo, weekAgo)
    // Same length: the key is the bundle's checksum, not only its size.
    writeFileSync(bundle, readFileSync(bundle, 'utf8').replace('hello', 'howdy'))
    expect(await runCached<Bundle, string>(url, env, fallback, greet)).toMatch(/^howdy you/)
    const files = cacheFiles(cacheDir)
    expect(files).toHaveLength(1)
    expect(files[0]).not.toBe(first)
  })

  it("keeps a cache per variant, each written by that variant's first run", async () => {
    // A JSON search's cache lacks the markdown formatting a terminal's search compiles: each output format its own.
    const { url, cacheDir, env } = setup()
    await runCached<Bundle, string>(url, env, fallback, greet, { variant: 'json' })
    const [json] = cacheFiles(cacheDir)
    expect(json).toMatch(/greet-json-[0-9a-f]{16}\.bin$/)
    const jsonBytes = readFileSync(json!)
    expect(await runCached<Bundle, string>(url, env, fallback, (m) => m.later(), { variant: 'markdown' })).toBe(
      'greet.cjs',
    )
    const markdown = cacheFiles(cacheDir).find((f) => f !== json)
    expect(markdown).toMatch(/greet-markdown-[0-9a-f]{16}\.bin$/)
    expect(readFileSync(json!).equals(jsonBytes)).toBe(true)
    // Each is read, not written, by the next run of its variant.
    const markdownBytes = readFileSync(markdown!)
    await runCached<Bundle, string>(url, env, fallback, (m) => m.later(), { variant: 'markdown' })
    await runCached<Bundle, string>(url, env, fallback, greet, { variant: 'json' })
    expect(readFileSync(markdown!).equals(markdownBytes)).toBe(true)
    expect(readFileSync(json!).equals(jsonBytes)).toBe(true)
    expect(cacheFiles(cacheDir)).toHaveLength(2)
  })

  it('removes a week-old cache of another build whatever its variant', async () => {
    const { file: bundle, url, cacheDir, env } = setup()
    await runCached<Bundle, string>(url, env, fallback, greet, { variant: 'markdown' })
    await runCached<Bundle, string>(url, env, fallback, greet)
    const weekAgo = new Date(Date.now() - 8 * 24 * 3_600_000)
    for (const old of cacheFiles(cacheDir)) utimesSync(old, weekAgo, weekAgo)
    writeFileSync(bundle, readFileSync(bundle, 'utf8').replace('hello', 'howdy'))
    await runCached<Bundle, string>(url, env, fallback, greet, { variant: 'json' })
    expect(cacheFiles(cacheDir).map((f) => f.replace(/.*[\\/]/, ''))).toEqual([
      expect.stringMatching(/^greet-json-[0-9a-f]{16}\.bin$/),
    ])
  })

  it('still works when the cache directory cannot be written', async () => {
    const { url, cacheDir, env } = setup()
    writeFileSync(cacheDir, 'a file where the directory would be')
    expect(await runCached<Bundle, string>(url, env, fallback, greet)).toBe(`hello you from a/b at ${url.href}`)
  })

  it.each(['off', '0', 'False'])('reads and writes no cache with SEARCH_LAYER_CODE_CACHE=%s', async (word) => {
    const { url, cacheDir, env } = setup()
    const off = { ...env, SEARCH_LAYER_CODE_CACHE: word }
    expect(await runCached<Bundle, string>(url, off, fallback, greet)).toBe(`hello you from a/b at ${url.href}`)
    expect(cacheFiles(cacheDir)).toEqual([])
  })

  it('runs the bundle without a cache on a Node without zlib.crc32 (before 20.15)', async () => {
    vi.resetModules()
    vi.doMock('node:zlib', async (importOriginal) => ({ ...(await importOriginal<object>()), crc32: undefined }))
    try {
      const { runCached: runCachedOnOldNode } = await import('./code-cache.js')
      const { url, cacheDir, env } = setup()
      expect(await runCachedOnOldNode<Bundle, string>(url, env, fallback, greet)).toBe(
        `hello you from a/b at ${url.href}`,
      )
      expect(cacheFiles(cacheDir)).toEqual([])
    } finally {
      vi.doUnmock('node:zlib')
      vi.resetModules()
    }
  })

  it('imports the module as usual when there is no bundle', async () => {
    const { cacheDir, env } = setup()
    const missing = pathToFileURL(join(cacheDir, 'missing.cjs'))
    const module: Bundle = { greet: () => 'from the fallback', later: async () => '' }
    expect(await runCached(missing, env, async () => module, greet)).toBe('from the fallback')
    expect(cacheFiles(cacheDir)).toEqual([])
  })
})
