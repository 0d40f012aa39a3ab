import { defineConfig } from 'tsup'

export default defineConfig({
  // The worker is its own entry: `ExtractPool` starts it from dist/extract-worker.js, beside index.js.
  entry: ['src/index.ts', 'src/schemas.ts', 'src/extract-worker.ts'],
  format: ['esm'],
  clean: true,
  target: 'node20',
  sourcemap: true,
})
