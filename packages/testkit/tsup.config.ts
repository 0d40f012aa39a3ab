import { defineConfig } from 'tsup'
import { libraryConfig } from '../../tsup.library'

export default defineConfig([
  // `./vitest` is ESM only, as vitest itself is: it is built beside the main entry in the ESM pass alone.
  libraryConfig(['src/index.ts', 'src/vitest.ts'], { format: ['esm'] }),
  libraryConfig(['src/index.ts'], { format: ['cjs'], clean: false }),
  {
    entry: ['src/bin.ts'],
    format: ['esm'],
    target: 'node20',
    sourcemap: true,
    banner: { js: '#!/usr/bin/env node' },
  },
])
