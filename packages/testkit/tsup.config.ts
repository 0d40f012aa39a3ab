import { defineConfig } from 'tsup'

export default defineConfig([
  {
    entry: ['src/index.ts', 'src/vitest.ts'],
    format: ['esm'],
      clean: true,
    target: 'node20',
    sourcemap: true,
  },
  {
    entry: ['src/bin.ts'],
    format: ['esm'],
    target: 'node20',
    sourcemap: true,
    banner: { js: '#!/usr/bin/env node' },
  },
])
