import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/index.ts', 'src/options.ts'],
  format: ['esm'],
  clean: true,
  target: 'node20',
  sourcemap: true,
})
