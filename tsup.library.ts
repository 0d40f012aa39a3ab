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
