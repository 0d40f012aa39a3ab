import { fileURLToPath } from 'node:url'
import { type Options, defineConfig } from 'tsup'

// Workspace packages import 'undici'; the bundle gets only the three parts they use (see the file's comment).
const undiciSlim = fileURLToPath(new URL('./src/_undici-slim.mjs', import.meta.url))
// zod's every locale, reachable through `z.locales`: the bundle keeps English only (see the file's comment).
const zodLocalesEn = fileURLToPath(new URL('./src/_zod-locales-en.mjs', import.meta.url))

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
  // The Vercel AI SDK adapter in @search-layer/tools is never used by the CLI; leave its lazy import alone.
  external: ['ai'],
  banner: { js: "import { createRequire as __slCreateRequire } from 'node:module'; const require = __slCreateRequire(import.meta.url);" },
  esbuildOptions(options) {
    options.conditions = ['@search-layer/source', 'module', 'import']
  },
  esbuildPlugins: [
    {
      name: 'undici-slim',
      setup(build) {
        build.onResolve({ filter: /^undici$/ }, () => ({ path: undiciSlim }))
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

// One build for both entries so they share chunks; the shebang is harmless in the library entry.
export default defineConfig({
  ...shared,
  entry: { cli: 'src/cli.ts', index: 'src/index.ts' },
  clean: true,
  splitting: true,
  dts: { entry: { index: 'src/index.ts' } },
  banner: { js: `#!/usr/bin/env node\n${shared.banner.js}` },
})
