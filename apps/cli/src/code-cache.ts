import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Script } from 'node:vm'
import * as zlib from 'node:zlib'
import type { Env } from '@search-layer/core'
import { cliCacheDir, codeCacheSetting } from './compile-cache.js'
import { useOneShotV8Flags } from './one-shot-flags.js'

const CHECKSUM_BYTES = 4
// A cache file of another build or Node version is removed when a new one is written, once it is this old (a
// user who runs two installs in turn keeps both).
const STALE_MS = 7 * 24 * 3_600_000

/**
 * Runs a one-shot command's implementation from its own CommonJS bundle (`dist/<name>.cjs`, see tsup.config.ts)
 * through V8's code cache: the bytecode of every function the previous run compiled, kept in the user's cache
 * directory, so a search neither parses nor compiles the megabyte of code it runs (Node 20 has no
 * `module.enableCompileCache`).
 *
 * The file is `<cache dir>/code/<name>-<key>.bin`, the key the CRC-32 of Node's version, the CPU architecture and
 * the bundle's bytes, then the bundle's length; it holds the CRC-32 of V8's data, then the data. A file that is
 * missing or damaged, or that V8 rejects (other V8 flags), is ignored: the bundle compiles as usual and the cache is
 * written after the command.
 *
 * The cache is written once, after the first run, and holds the functions that run compiled: a later run down
 * another path (markdown output after a JSON one) would compile that path's functions anew every time. `variant`
 * names the path a run takes (`<name>-<variant>-<key>.bin`), so each path gets its own cache, written by its own
 * first run; a wrong guess of the path costs only speed. `SEARCH_LAYER_CODE_CACHE=off` reads and writes none, and so does a Node 20 older than
 * 20.15 (no `zlib.crc32`). Without the bundle (the TypeScript sources, in tests), `fallback` imports the module as
 * usual.
 *
 * Why CRC-32 and not SHA-256: both checks guard against accidents (a cache file is only read when this user wrote
 * it), and hashing the 3 MB of bundle and cache takes ~2.8 ms with SHA-256 against ~1.9 ms with node:zlib's CRC-32,
 * loading node:zlib included.
 */
export async function runCached<M, R>(
  bundleUrl: URL,
  env: Env,
  fallback: () => Promise<M>,
  run: (module: M) => Promise<R>,
  { variant }: { variant?: string } = {},
): Promise<R> {
  const file = fileURLToPath(bundleUrl)
  const bytes = readOrUndefined(file)
  if (!bytes) return run(await fallback())
  const cacheOn = (await codeCacheSetting(env)) === true
  const cacheFile = !cacheOn || !crc32 ? undefined : cacheFileFor(file, bytes, env, variant)
  const cachedData = cacheFile ? readCache(cacheFile) : undefined
  // Before compiling: V8 accepts a cache only under the flags it was made with, and the command sets these.
  useOneShotV8Flags()
  const script = new Script(wrap(bytes.toString('utf8')), { filename: file, ...(cachedData && { cachedData }) })
  const module = { exports: {} as M }
  const require = createRequire(file)
  script.runInThisContext()(module.exports, require, module, file, dirname(file), bundleUrl.href, importModule)
  const result = await run(module.exports)
  // After the run, the cache holds the functions it compiled on the way, not only the top level.
  if (cacheFile && (!cachedData || script.cachedDataRejected))
    writeCache(cacheFile, basename(file, '.cjs'), script.createCachedData())
  return result
}

// CommonJS's own wrapper, plus what the bundle uses for `import.meta.url` and for `import()` of a plug-in provider
// (see tsup.config.ts): a script's own `import()` needs a flag on Node 20.
const wrap = (source: string) =>
  `(function (exports, require, module, __filename, __dirname, __importMetaUrl, __importModule) {${source}\n})`

const importModule = (specifier: string) => import(specifier)

// zlib.crc32 came in Node 20.15 (and 22.2).
const crc32: ((data: Uint8Array | string, value?: number) => number) | undefined = zlib.crc32

const hex32 = (n: number) => n.toString(16).padStart(8, '0')

function cacheFileFor(file: string, bytes: Buffer, env: Env, variant: string | undefined): string {
  const key = hex32(crc32!(bytes, crc32!(`${process.version} ${process.arch}\n`))) + hex32(bytes.length)
  const name = variant ? `${basename(file, '.cjs')}-${variant}` : basename(file, '.cjs')
  return join(cliCacheDir(env), 'code', `${name}-${key}.bin`)
}

function readOrUndefined(file: string, { ownedByMe = false } = {}): Buffer | undefined {
  let fd: number | undefined
  try {
    fd = openSync(file, 'r')
    if (ownedByMe && process.getuid && fstatSync(fd).uid !== process.getuid()) return undefined
    return readFileSync(fd)
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

// V8 runs what a cache file holds: only a file this user wrote is read (another user's could be made to match).
function readCache(file: string): Buffer | undefined {
  const stored = readOrUndefined(file, { ownedByMe: true })
  if (!stored || stored.length <= CHECKSUM_BYTES) return undefined
  const data = stored.subarray(CHECKSUM_BYTES)
  return crc32!(data) === stored.readUInt32BE(0) ? data : undefined
}

function writeCache(file: string, bundle: string, data: Buffer): void {
  const temp = `${file}.${process.pid}.tmp`
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
    const checksum = Buffer.alloc(CHECKSUM_BYTES)
    checksum.writeUInt32BE(crc32!(data))
    writeFileSync(temp, Buffer.concat([checksum, data]), { mode: 0o600 })
    renameSync(temp, file)
    removeStale(file, bundle)
  } catch {
    // Not writable: the next run compiles again, nothing else changes.
    removeQuietly(temp)
  }
}

function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true })
  } catch {
    // Its directory is not there, or not ours to change.
  }
}

/** Older cache files of the same bundle (other builds, other Node versions, any variant). */
function removeStale(file: string, bundle: string): void {
  const dir = dirname(file)
  const prefix = `${bundle}-`
  const now = Date.now()
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (path === file || !name.startsWith(prefix) || !name.endsWith('.bin')) continue
    if (now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true })
  }
}
