import { cpSync, existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'tsup'

// The web app (apps/web, built first by turbo) ships inside this package as dist/web, where routes/web.ts looks.
const webDist = fileURLToPath(new URL('../web/dist/', import.meta.url))

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  clean: true,
  target: 'node20',
  sourcemap: true,
  async onSuccess() {
    if (existsSync(webDist)) cpSync(webDist, fileURLToPath(new URL('./dist/web/', import.meta.url)), { recursive: true })
  },
})
