import { cpSync, existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { libraryConfig } from '../../tsup.library'

// The web app (apps/web, built first: scripts/build.mjs) ships inside this package as dist/web, where routes/web.ts looks.
const webDist = fileURLToPath(new URL('../web/dist/', import.meta.url))

export default libraryConfig(['src/index.ts'], {
  async onSuccess() {
    if (existsSync(webDist))
      cpSync(webDist, fileURLToPath(new URL('./dist/web/', import.meta.url)), { recursive: true })
  },
})
