import { createHash } from 'node:crypto'
import { isAscii } from 'node:buffer'
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import nodeModule from 'node:module'
import { join } from 'node:path'
import { Script } from 'node:vm'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { emulatorEnv, runBin } from './_run.js'

const emu = useEmulator({ resetEachTest: false })

const SEARCH = ['rust async runtime', '--mode', 'deep', '--intent', 'exploratory', '--no-cache', '--json']
type Json = { queries: string[]; results: { url: string }[]; providers: Record<string, { status: string }> }

const codeDir = (env: Record<string, string | undefined>) => join(env.SEARCH_LAYER_CACHE_DIR!, 'code')
const cacheFiles = (env: Record<string, string | undefined>) =>
  readdirSync(codeDir(env)).map((name) => join(codeDir(env), name))

async function search(env: Record<string, string | undefined>) {
  const r = await runBin(SEARCH, env)
  expect(r.stderr).toBe('')
  expect(r.code).toBe(0)
  const out = JSON.parse(r.stdout) as Json
  expect(out.providers.brave!.status).toBe('ok')
  return out.results.map((x) => x.url)
}

describe('the search code cache (built bin)', () => {
  it('runs a bundle written in ASCII alone, whose escaped Chinese signal words still match', async () => {
    expect(isAscii(readFileSync(new URL('../dist/search-run.cjs', import.meta.url)))).toBe(true)
    const r = await runBin(['Rust 异步编程 教程', '--no-cache', '--json'], emulatorEnv(emu.env))
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as { intent: string; signals: { term: string }[]; queries: string[] }
    expect(out.intent).toBe('tutorial')
    expect(out.signals.map((s) => s.term)).toContain('教程')
    expect(out.queries).toContain('Rust async programming tutorial')
  })

  it('is written by the first search and used as it is by the next, which answers the same', async () => {
    const env = emulatorEnv(emu.env)
    const first = await search(env)
    const [file] = cacheFiles(env)
    // A JSON search's cache: a markdown search keeps its own (code-cache.ts, `variant`).
    expect(file).toMatch(/search-run-json-[0-9a-f]{16}\.bin$/)
    const written = readFileSync(file!)
    expect(await search(env)).toEqual(first)
    expect(readFileSync(file!).equals(written)).toBe(true)
    // Markdown output compiles formatting a JSON search never ran: its first run writes a cache of its own.
    const markdown = await runBin([...SEARCH.filter((a) => a !== '--json'), '--format', 'markdown'], env)
    expect(markdown.code, markdown.stderr).toBe(0)
    expect(
      cacheFiles(env)
        .map((f) => f.replace(/.*[\\/]/, ''))
        .sort(),
    ).toEqual([
      expect.stringMatching(/^search-run-json-[0-9a-f]{16}\.bin$/),
      expect.stringMatching(/^search-run-markdown-[0-9a-f]{16}\.bin$/),
    ])
    expect(readFileSync(file!).equals(written)).toBe(true)
  })

  // Five runs of the built bin (12-14 s alone on a loaded machine, on Node 20 and 24 alike; past 20 s beside the
  // other end-to-end files): a hang guard, not a speed check.
  it('is replaced when it is damaged, or when V8 rejects it (another V8, other flags, other code)', {
    timeout: 90_000,
  }, async () => {
    const env = emulatorEnv(emu.env)
    const expected = await search(env)
    const [file] = cacheFiles(env)
    const good = readFileSync(file!)
    const flipped = Buffer.from(good)
    flipped[good.length >> 1]! ^= 0xff
    const foreignData = (() => {
      const other = new Script('(function () { return 42 })')
      other.runInThisContext()
      return other.createCachedData()
    })()
    const foreign = Buffer.concat([createHash('sha256').update(foreignData).digest(), foreignData])
    for (const bad of [flipped, good.subarray(0, 1000), Buffer.from('garbage'), foreign]) {
      writeFileSync(file!, bad)
      expect(await search(env)).toEqual(expected)
      expect(readFileSync(file!).equals(bad)).toBe(false)
      expect(readFileSync(file!).length).toBeGreaterThan(1000)
    }
  })

  // Three runs of the built bin: a minute is a hang guard for a loaded machine, not a speed check.
  it('searches as usual when the cache directory cannot be written, or with SEARCH_LAYER_CODE_CACHE=off', {
    timeout: 60_000,
  }, async () => {
    // A file where the directory would be (a read-only directory does not stop root, who may run the tests).
    const blocked = emulatorEnv(emu.env)
    writeFileSync(join(blocked.SEARCH_LAYER_CACHE_DIR!, 'code'), 'not a directory')
    const expected = await search(blocked)
    const off = emulatorEnv(emu.env, { SEARCH_LAYER_CODE_CACHE: 'off' })
    expect(await search(off)).toEqual(expected)
    expect(readdirSync(off.SEARCH_LAYER_CACHE_DIR!)).not.toContain('code')
    const unset = emulatorEnv(emu.env, { SEARCH_LAYER_CACHE_DIR: undefined, XDG_CACHE_HOME: undefined })
    expect(await search(unset)).toEqual(expected)
    expect(readdirSync(join(unset.HOME!, '.cache', 'search-layer', 'code'))).toHaveLength(1)
  })

  // Node >= 22.1 only (skipped on Node 20, which has no module compile cache; `pnpm test:node-versions` runs it).
  it.skipIf(!('enableCompileCache' in nodeModule))(
    "keeps Node's compile cache of the chunks in the cache directory, owner-only, not in the shared temp dir",
    async () => {
      const env = emulatorEnv(emu.env)
      await search(env)
      const dir = join(env.SEARCH_LAYER_CACHE_DIR!, 'node-compile-cache')
      expect(statSync(dir).mode & 0o777).toBe(0o700)
      expect(readdirSync(dir, { recursive: true }).length).toBeGreaterThan(0)
    },
  )
})
