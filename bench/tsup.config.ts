import { defineConfig } from 'tsup'

// The bench runs the BUILT workspace packages (their dist), as users would; only the harness is bundled.
export default defineConfig({
  entry: { bench: 'src/main.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  clean: true,
  sourcemap: true,
})
