import { defineConfig } from 'vitest/config'

// Workspace packages resolve to their TypeScript sources through the "source" export condition,
// so tests and typecheck never depend on a previous build.
const conditions = ['source', 'module', 'node', 'development|production']

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
})
