import { defineConfig } from 'tsup'

// The CLI ships as one self-contained file: every workspace package and dependency is bundled in,
// so `npm install -g @search-layer/cli` pulls nothing else and start-up reads one module.
export default defineConfig([
  {
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    clean: true,
    sourcemap: true,
    noExternal: [/.*/],
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __slCreateRequire } from 'node:module'; const require = __slCreateRequire(import.meta.url);",
    },
    esbuildOptions(options) {
      options.conditions = ['source', 'module', 'import']
    },
  },
  {
    entry: { index: 'src/index.ts' },
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    dts: true,
    sourcemap: true,
    noExternal: [/.*/],
    esbuildOptions(options) {
      options.conditions = ['source', 'module', 'import']
    },
  },
])
