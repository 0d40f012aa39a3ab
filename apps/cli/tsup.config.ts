import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { constants as http2Constants } from 'node:http2'
import { fileURLToPath } from 'node:url'
import { type Options, defineConfig } from 'tsup'
import { withThirdPartyNotices } from '../../tsup.library'

// Workspace packages import 'undici'; the bundle gets only the three parts they use (see the file's comment).
const undiciSlim = fileURLToPath(new URL('./src/_undici-slim.mjs', import.meta.url))
// core's provider calls go through node:http instead, undici only behind a proxy (see the file's comment).
const undiciNodeHttp = fileURLToPath(new URL('./src/_undici-node-http.mjs', import.meta.url))
const fromCore = (importer: string) => /[\\/]packages[\\/]core[\\/]/.test(importer)
// zod's every locale, reachable through `z.locales`: the bundle keeps English only (see the file's comment).
const zodLocalesEn = fileURLToPath(new URL('./src/_zod-locales-en.mjs', import.meta.url))
// undici's two names from node:http, without loading it (see the file's comment).
const undiciHttp = fileURLToPath(new URL('./src/_undici-http.cjs', import.meta.url))
const fromUndici = (importer: string) => /[\\/]undici[\\/]lib[\\/]/.test(importer)
// `serve`'s web app: the server code bundled here looks for it in web/ beside the bundle (apps/web, built first).
const webDist = fileURLToPath(new URL('../web/dist/', import.meta.url))
const outDir = fileURLToPath(new URL('./dist/', import.meta.url))
// The search script's intent weights, beside it (see intentModelAside below).
const INTENT_MODEL_FILE = 'search-run-intent-model.bin'
// scoring's tldts, beside the search script too (see tldtsAside below).
const TLDTS_FILE = 'search-run-tldts.cjs'

// The CLI ships self-contained: every workspace package and dependency is bundled in, so
// `npm install -g @search-layer/cli` pulls nothing else. Commands load their implementation lazily
// (dynamic imports become chunks), so `--help` and light commands do not parse the whole bundle.
const shared: Options & { banner: { js: string } } = {
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  minify: true,
  noExternal: [/.*/],
  // The Vercel AI SDK (`ai`) is bundled too: `ask` runs its tool loop, in the ask command's own lazy chunk.
  // Keep `node:` specifiers as written (tsup strips them by default, before the plugins below could see them).
  removeNodeProtocol: false,
  banner: {
    js: "import { createRequire as __slCreateRequire } from 'node:module'; const require = __slCreateRequire(import.meta.url);",
  },
  esbuildOptions(options) {
    options.conditions = ['@search-layer/source', 'module', 'import']
  },
  esbuildPlugins: [
    {
      name: 'undici-slim',
      setup(build) {
        build.onResolve({ filter: /^undici$/ }, (args) => ({
          path: fromCore(args.importer) ? undiciNodeHttp : undiciSlim,
        }))
      },
    },
    {
      name: 'undici-http',
      setup(build) {
        build.onResolve({ filter: /^node:http$/ }, (args) =>
          fromUndici(args.importer) ? { path: undiciHttp } : undefined,
        )
      },
    },
    {
      // undici's HTTP/2 client loads `node:http2` (and with it the HTTP/2 core and compat layers) when the bundle
      // starts, for ten header-name constants; search-layer never enables HTTP/2. The bundle gets node:http2's
      // constants as they were when it was built (protocol names and numbers, the same in every Node version)
      // and the real module only if a connection ever asks for HTTP/2. ~5 ms of every search's start-up.
      name: 'undici-lazy-http2',
      setup(build) {
        build.onResolve({ filter: /^node:http2$/ }, (args) =>
          fromUndici(args.importer) ? { path: 'node:http2', namespace: 'undici-lazy-http2' } : undefined,
        )
        build.onLoad({ filter: /.*/, namespace: 'undici-lazy-http2' }, () => ({
          loader: 'js',
          contents: [
            `module.exports = {`,
            `  constants: JSON.parse(${JSON.stringify(JSON.stringify(http2Constants))}),`,
            `  connect: (...args) => require('node:http2').connect(...args),`,
            `}`,
          ].join('\n'),
        }))
      },
    },
    {
      name: 'zod-locales-en',
      setup(build) {
        build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
          /[\\/]zod[\\/]v4[\\/]/.test(args.importer) ? { path: zodLocalesEn } : undefined,
        )
      },
    },
  ],
}

// node:util by `require` in the ES module build, not `import`: an ES module's import of a built-in makes Node build
// its ES module facade, which reads every export, and on Node 24 node:util's lazy getters load its diff and colour
// helpers, worker_threads and 30 more modules (for `parseArgs`, in args.ts, on every command's way in). The shim is
// an object whose prototype is the module: esbuild's `__toESM` then finds no own property to copy (a descriptor read
// would run those getters too), and every name reads through to Node's own. The bundle's banner defines `require`.
// Other built-ins stay imports: copying their many exports cost more than the few modules their facades load.
const utilByRequire: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'node-util-by-require',
  setup(build) {
    build.onResolve({ filter: /^node:util$/ }, ({ path, namespace }) =>
      namespace === 'file' ? { path, namespace: 'node-util-by-require' } : undefined,
    )
    build.onLoad({ filter: /.*/, namespace: 'node-util-by-require' }, () => ({
      loader: 'js',
      contents: `module.exports = Object.create(require('node:util'))`,
    }))
  },
}

// One build for both entries so they share chunks; the shebang is harmless in the library entry.
// Its metafile lists every package bundled (the search script below bundles a subset of the same): the notices of
// dist/THIRD-PARTY-NOTICES.md come from it.
const esm: Options = withThirdPartyNotices('@search-layer/cli', {
  ...shared,
  entry: {
    cli: 'src/cli.ts',
    index: 'src/index.ts',
    'extract-worker': 'src/extract-worker.ts',
    evidence: 'src/evidence.ts',
    'terminal-markdown': 'src/terminal-markdown.ts',
    'thread-fetch': 'src/thread-fetch.ts',
    'undici-slim': 'src/_undici-slim.mjs',
  },
  // Not the CommonJS bundles below and their data file, which the other build writes at the same time.
  clean: ['!search-run.cjs*', `!${TLDTS_FILE}*`, `!${INTENT_MODEL_FILE}`],
  splitting: true,
  // No `dts`: the declarations of the public entry (index, main, io: self-contained, see io.ts) come from the
  // house's one TypeScript program (scripts/build-types.mjs, apps/cli/tsconfig.build.json). tsup's bundled dts built
  // a second program over the CLI's whole import graph for 30 lines: ~21 of the build's ~100 CPU-seconds.
  banner: { js: `#!/usr/bin/env node\n${shared.banner.js}` },
  esbuildPlugins: [...(shared.esbuildPlugins ?? []), utilByRequire],
  async onSuccess() {
    if (existsSync(webDist))
      cpSync(webDist, fileURLToPath(new URL('./dist/web/', import.meta.url)), { recursive: true })
  },
})

// esbuild's `charset: 'ascii'` escapes strings and identifiers but leaves regular expression literals as written,
// and ours hold Chinese signal words (Readability's, words of several languages). Sources reach esbuild with every
// non-ASCII character as a \uXXXX escape, which means the same in a string, a template, a regex (a surrogate pair
// escaped is one code point under the u flag too), an identifier or a comment. Two places where it would not are refused: an escaped
// non-ASCII character (`\—` in a regex) and a String.raw template holding one (interpolate a plain string instead).
function asciiOnly(path: string, source: string): string {
  if (!/[^\x00-\x7f]/.test(source)) return source
  if (/\\[^\x00-\x7f]|String\.raw`[^`]*[^\x00-\x7f]/.test(source))
    throw new Error(`${path}: a non-ASCII character after a backslash or in String.raw cannot be escaped safely`)
  return source.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

const asciiSources: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'ascii-sources',
  setup(build) {
    build.onLoad({ filter: /\.(ts|js|mjs|cjs)$/ }, ({ path }) => {
      const source = readFileSync(path, 'utf8')
      if (!/[^\x00-\x7f]/.test(source)) return undefined
      return { loader: path.endsWith('.ts') ? 'ts' : 'js', contents: asciiOnly(path, source) }
    })
  },
}

// Modules the search script (below) imports from an entry of the ES module build, through the same function as
// plug-ins, so a search that does not need them compiles none of their code:
// - Reading a search's top results (`read`) needs the evidence package: page-fetch's reader, the passage ranker,
//   MiniSearch and the tokenizer's 2 MB rank table, more than the rest of the script together (dist/evidence.js,
//   src/evidence.ts).
// - Rendering markdown for a colour terminal needs marked (dist/terminal-markdown.js): a piped or JSON search never
//   does.
// - `--extract-refs` needs the thread reader (dist/thread-fetch.js): domino, linkedom, Readability, turndown and
//   page-fetch, ~40% of the script's bytes, read and checksummed by every search before.
// - Sending through a proxy needs undici (dist/undici-slim.js): ~310 KB of client code and two WebAssembly builds of
//   llhttp as base64, a fifth of the script, which a search without HTTP(S)_PROXY never runs.
const routedImports = [
  {
    importers: /[\\/](?:packages[\\/]engine[\\/]src[\\/]_read|apps[\\/]cli[\\/]src[\\/]format)\.ts$/,
    specifier: '@search-layer/evidence',
    entry: './evidence.js',
  },
  {
    importers: /[\\/]apps[\\/]cli[\\/]src[\\/]commands[\\/]search-run\.ts$/,
    specifier: '../terminal-markdown.js',
    entry: './terminal-markdown.js',
  },
  {
    importers: /[\\/]apps[\\/]cli[\\/]src[\\/]commands[\\/]search-run\.ts$/,
    specifier: '@search-layer/thread-fetch',
    entry: './thread-fetch.js',
  },
  {
    importers: /[\\/]apps[\\/]cli[\\/]src[\\/]_undici-node-http\.mjs$/,
    specifier: './_undici-slim.mjs',
    entry: './undici-slim.js',
  },
]
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const routedImport: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'routed-import',
  setup(build) {
    const importers = new RegExp(routedImports.map((r) => r.importers.source).join('|'))
    build.onLoad({ filter: importers }, ({ path }) => {
      let source = readFileSync(path, 'utf8')
      for (const route of routedImports) {
        if (!route.importers.test(path)) continue
        // The call, not a `typeof import(…)` type.
        const call = new RegExp(`(?<!typeof )import\\('${escapeRegExp(route.specifier)}'\\)`, 'g')
        if (source.match(call)?.length !== 1)
          throw new Error(`${path}: expected one import('${route.specifier}') to route`)
        source = source.replace(call, `__importModule(new URL('${route.entry}', import.meta.url).href)`)
      }
      return { loader: 'ts', contents: asciiOnly(path, source) }
    })
  },
}

// The intent classifier's weights (packages/intent/src/_model-weights.json, ~370 KB, mostly two base64 tables) as a
// binary file beside the script instead of inside it: every search reads, checksums and decodes the script, and the
// code cache holds every string the run used, so the weights were read from disk twice and checksummed twice before
// the first call, then decoded from base64. The file is a little-endian uint32 length, the JSON without the two
// tables (padded with spaces to a multiple of 4 bytes), then the `keys` bytes and the `weights` bytes, read on the
// classifier's first prediction (readFileSync: the JSON import was synchronous too). Getters for the JSON's keys,
// known at build: `__toESM` copies nothing, so importing the module reads no file.
const intentModelAside: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'intent-model-aside',
  setup(build) {
    build.onLoad({ filter: /[\\/]packages[\\/]intent[\\/]src[\\/]_model-weights\.json$/ }, ({ path }) => {
      const { keys, weights, ...rest } = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
      if (typeof keys !== 'string' || typeof weights !== 'string')
        throw new Error(`${path}: expected base64 keys and weights`)
      const keyBytes = Buffer.from(keys, 'base64')
      const weightBytes = Buffer.from(weights, 'base64')
      let head = JSON.stringify({ ...rest, keyBytes: keyBytes.length, weightBytes: weightBytes.length })
      head = head.padEnd(Math.ceil((4 + head.length) / 4) * 4 - 4, ' ')
      const length = Buffer.alloc(4)
      length.writeUInt32LE(head.length)
      mkdirSync(outDir, { recursive: true })
      writeFileSync(join(outDir, INTENT_MODEL_FILE), Buffer.concat([length, Buffer.from(head), keyBytes, weightBytes]))
      const names = ['keys', 'weights', ...Object.keys(rest)]
      return {
        loader: 'js',
        contents: [
          `import { readFileSync } from 'node:fs'`,
          `import { join } from 'node:path'`,
          `let model`,
          `function read() {`,
          `  if (model) return model`,
          // __dirname: the search script's CommonJS wrapper (src/code-cache.ts).
          `  const file = readFileSync(join(__dirname, '${INTENT_MODEL_FILE}'))`,
          `  const bytes = (from, length) => new Uint8Array(file.buffer, file.byteOffset + from, length)`,
          `  const headLength = file.readUInt32LE(0)`,
          `  const head = JSON.parse(file.toString('utf8', 4, 4 + headLength))`,
          `  const keysAt = 4 + headLength`,
          `  const { keyBytes, weightBytes, ...rest } = head`,
          `  model = { ...rest, keys: bytes(keysAt, keyBytes), weights: bytes(keysAt + keyBytes, weightBytes) }`,
          `  return model`,
          `}`,
          `export default {`,
          ...names.map((key) => `  get ${JSON.stringify(key)}() { return read()[${JSON.stringify(key)}] },`),
          `}`,
        ].join('\n'),
      }
    })
  },
}

// DuckDuckGo's provider uses htmlparser2's Tokenizer alone, but htmlparser2's index brings its Parser, domhandler,
// domutils, dom-serializer and a second copy of entities (v4, with its encoding tables) into the search script:
// ~110 KB that every search read and checksummed, none of it run. The script takes the Tokenizer's own module (not
// in htmlparser2's exports map, so found beside its index; a release that moves it fails the build).
const tokenizerOnly: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'htmlparser2-tokenizer-only',
  setup(build) {
    build.onResolve({ filter: /^htmlparser2$/ }, ({ importer }) => {
      if (!/[\\/]packages[\\/]providers-duckduckgo[\\/]/.test(importer)) return undefined
      const index = createRequire(importer).resolve('htmlparser2')
      const tokenizer = join(dirname(index), '..', 'esm', 'Tokenizer.js')
      if (!existsSync(tokenizer)) throw new Error(`htmlparser2: no ${tokenizer}; see tokenizerOnly in tsup.config.ts`)
      // The shim's name (in the source map) without this machine's paths.
      return { path: 'htmlparser2/Tokenizer', namespace: 'htmlparser2-tokenizer-only', pluginData: tokenizer }
    })
    build.onLoad({ filter: /.*/, namespace: 'htmlparser2-tokenizer-only' }, ({ pluginData }) => ({
      loader: 'js',
      resolveDir: dirname(pluginData as string),
      contents: `export { default as Tokenizer } from './Tokenizer.js'`,
    }))
  },
}

// tldts (the public suffix list as a trie, with tldts-core ~130 KB of source; only scoring's site and authority steps
// use it) as a CommonJS file of its own beside the search script, which `require`s it (createRequire of the script,
// src/code-cache.ts) when scoring's module first runs: after the search's calls are sent, when the engine loads
// scoring (packages/engine/src/_run.ts). In the script its compiled trie was ~335 KB of the ~1.29 MB code cache that
// every search reads, checksums and deserialises before its first call (deserialising: 21.3 -> 17.7 ms, medians of
// 15, Node 20), and ~18% of the script's bytes. Node's compile cache (compile-cache.ts, Node >= 22.1) keeps its
// compiled code; on Node 20 it compiles from source (~3-5 ms of CPU) while the answers are awaited. The entry is
// tldts's ES module build, the code the script held.
const scoringDir = fileURLToPath(new URL('../../packages/scoring/', import.meta.url))
const tldtsEntry = (() => {
  const pkg = createRequire(join(scoringDir, 'package.json')).resolve('tldts/package.json')
  const { module: esm } = JSON.parse(readFileSync(pkg, 'utf8')) as { module?: string }
  const entry = esm && join(dirname(pkg), esm)
  if (!entry || !existsSync(entry))
    throw new Error(`tldts: no ES module build beside ${pkg}; see tldtsAside in tsup.config.ts`)
  return entry
})()
const tldtsAside: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'tldts-aside',
  setup(build) {
    build.onResolve({ filter: /^tldts$/ }, ({ importer }) =>
      /[\\/]packages[\\/]scoring[\\/]/.test(importer) ? { path: `./${TLDTS_FILE}`, external: true } : undefined,
    )
  },
}

// A search's code again, as one CommonJS script that the CLI compiles through V8's code cache (src/code-cache.ts):
// a code cache is for scripts, not ES modules, on Node 20. Everything it imports lazily stays in it, lazily run,
// but for the routed imports and tldts above.
const searchScript: Options = {
  ...shared,
  entry: { 'search-run': 'src/commands/search-run.ts', [TLDTS_FILE.replace(/\.cjs$/, '')]: tldtsEntry },
  format: ['cjs'],
  splitting: false,
  banner: {},
  // code-cache.ts passes the bundle's URL under this name.
  define: { 'import.meta.url': '__importMetaUrl' },
  // All ASCII (see asciiSources above): its source is then a one-byte string, half the bytes of the two-byte string a
  // few Chinese characters make, faster to decode and to compile from. (Read as UTF-8 all the same: Latin-1 would
  // make Node hand V8 an external string, which counts as outside memory and brought on a full GC before exit.)
  esbuildOptions(options, context) {
    shared.esbuildOptions?.(options, context)
    options.charset = 'ascii'
  },
  esbuildPlugins: [
    ...(shared.esbuildPlugins ?? []),
    {
      // A script's `import()` needs --experimental-vm-modules on Node 20: core imports plug-in providers through the
      // function code-cache.ts passes instead (an ES module's own import()).
      name: 'plugin-import',
      setup(build) {
        build.onLoad({ filter: /[\\/]packages[\\/]core[\\/]src[\\/]plugins\.ts$/ }, ({ path }) => {
          const source = readFileSync(path, 'utf8')
          const call = 'await import(url)'
          if (source.split(call).length !== 2) throw new Error(`${path}: expected one "${call}" to route`)
          return { loader: 'ts', contents: source.replace(call, 'await __importModule(url)') }
        })
      },
    },
    routedImport,
    intentModelAside,
    tokenizerOnly,
    tldtsAside,
    asciiSources,
  ],
}

export default defineConfig([esm, searchScript])
