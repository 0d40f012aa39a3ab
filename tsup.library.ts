import type { Options } from 'tsup'

/**
 * How every published library package builds: ESM (`.js`) and CommonJS (`.cjs`) from the same entries, so
 * `import` and `require()` both load it. Shared modules go to common chunks in both formats (`splitting`), so a
 * class such as `ProviderError` is one class whichever subpath of a package loads it; `shims` gives the CommonJS
 * build `import.meta.url`. The declarations come from `tsc`, and `scripts/cjs-types.mjs` gives them `.d.cts` twins.
 */
export function libraryConfig(entry: NonNullable<Options['entry']>, options: Options = {}): Options {
  return {
    entry,
    format: ['esm', 'cjs'],
    splitting: true,
    shims: true,
    clean: true,
    target: 'node20',
    sourcemap: true,
    ...options,
  }
}

/**
 * Options for a library that inlines some dependencies (`noExternal`): the build also writes
 * `dist/THIRD-PARTY-NOTICES.md`, the licences of every package that went into the bundle (from esbuild's metafile,
 * which the build then removes), so the copies it publishes carry their notices. `options.onSuccess`, a function,
 * runs first.
 */
export function withThirdPartyNotices(subject: string, options: Options): Options {
  return {
    ...options,
    metafile: true,
    async onSuccess() {
      if (typeof options.onSuccess === 'function') await options.onSuccess()
      const { readdirSync, rmSync } = await import('node:fs')
      const { writeThirdPartyNotices } = await import('./scripts/third-party-notices.mjs')
      writeThirdPartyNotices('dist/metafile-esm.json', 'dist/THIRD-PARTY-NOTICES.md', subject)
      for (const name of readdirSync('dist')) if (/^metafile-.*\.json$/.test(name)) rmSync(`dist/${name}`)
    },
  }
}
