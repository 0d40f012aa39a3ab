import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../index.js'

async function providers(env: Record<string, string | undefined>, json = false) {
  let stdout = ''
  let stderr = ''
  const code = await runCli(json ? ['providers', '--json'] : ['providers'], {
    stdout: { write: (s: string) => (stdout += s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: { HOME: '/nonexistent-home', SEARCH_LAYER_KEYLESS: 'off', ...env },
  })
  return { code, stdout, stderr }
}

describe('search-layer providers: page rendering', () => {
  it('says rendering is off unless SEARCH_LAYER_BROWSER asks for it', async () => {
    const r = await providers({})
    expect(r.stdout).toContain('Rendering JavaScript-only pages: off (set SEARCH_LAYER_BROWSER=chromium')
  })

  it('says rendering is unavailable when the browser named is not there', async () => {
    const r = await providers({ SEARCH_LAYER_BROWSER: 'chromium', CHROMIUM_PATH: '/nonexistent/chromium' })
    expect(r.stdout).toContain('Rendering JavaScript-only pages: unavailable (no executable /nonexistent/chromium')
  })

  it('says rendering is on, with the browser, when it is there (also in --json)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sl-chromium-'))
    const browser = join(dir, 'chromium')
    writeFileSync(browser, '#!/bin/sh\n')
    chmodSync(browser, 0o755)
    const r = await providers({ SEARCH_LAYER_BROWSER: 'chromium', CHROMIUM_PATH: browser })
    expect(r.stdout).toContain(`Rendering JavaScript-only pages: on (headless ${browser})`)
    const json = await providers({ SEARCH_LAYER_BROWSER: 'chromium', PATH: dir }, true)
    expect(JSON.parse(json.stdout).rendering).toEqual({ state: 'on', detail: `headless ${browser}` })
  })

  it('refuses a SEARCH_LAYER_BROWSER it does not know, naming the variable, the value and what is allowed', async () => {
    const r = await providers({ SEARCH_LAYER_BROWSER: 'firefox' })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('SEARCH_LAYER_BROWSER is "firefox": allowed are "chromium"')
  })
})
