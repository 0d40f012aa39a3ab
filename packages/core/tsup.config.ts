import { defineConfig } from 'tsup'

export default defineConfig({
  // One entry per subpath (package.json `exports`); shared modules go to common chunks, so `ProviderError` is one class
  // whichever subpath loads it.
  entry: {
    index: 'src/index.ts',
    'http/index': 'src/http/index.ts',
    'config/index': 'src/config/index.ts',
    'testing/index': 'src/testing/index.ts',
    'text/index': 'src/text/index.ts',
  },
  format: ['esm'],
  clean: true,
  target: 'node20',
  sourcemap: true,
})
