import { defineConfig } from 'tsup'

export default defineConfig({
  // One entry per subpath export; the names keep each bundle beside its declarations (dist/text/index.d.ts).
  entry: { index: 'src/index.ts', 'text/index': 'src/text/index.ts' },
  format: ['esm'],
  clean: true,
  target: 'node20',
  sourcemap: true,
})
