import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import { type Browser, chromium } from 'playwright-core'

/** Chromium from the Debian package (`scripts/provision.mjs` installs it), or `CHROMIUM_BIN`. */
function chromiumPath(): string {
  if (process.env.CHROMIUM_BIN) return process.env.CHROMIUM_BIN
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of ['chromium', 'chromium-browser']) {
      try {
        accessSync(join(dir, name), constants.X_OK)
        return join(dir, name)
      } catch {}
    }
  }
  throw new Error(
    'The web app tests drive headless Chromium: run `node scripts/provision.mjs` (Debian: apt-get install -y chromium) or set CHROMIUM_BIN',
  )
}

/** Headless Chromium with nothing that talks to the internet on its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}
