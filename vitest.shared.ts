import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// Workspace packages resolve to their TypeScript sources through the "@search-layer/source" export condition
// (namespaced: some npm packages, e.g. eventsource-parser, ship a plain "source" condition pointing at raw .ts),
// so tests and typecheck never depend on a previous build.
const conditions = ['@search-layer/source', 'module', 'node', 'development|production']

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@search-layer/source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    // Absolute: package configs share this file from their own directories.
    setupFiles: [fileURLToPath(new URL('./vitest.setup.ts', import.meta.url))],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // AI SDK 5 (tools' tests) imports @opentelemetry/api, whose "module" build (picked by the "module" condition
    // above) uses extensionless imports Node cannot load: vite transforms both instead.
    server: { deps: { inline: [/@opentelemetry\/api/, /\/ai@5\./] } },
  },
})
