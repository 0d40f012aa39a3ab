import { accessSync, constants } from 'node:fs'
import { createRequire } from 'node:module'
import { delimiter, isAbsolute, join } from 'node:path'
import { ConfigError } from '@search-layer/core'
import { z } from 'zod'

// The one place where rendering is configured: `SEARCH_LAYER_BROWSER` turns it on, `CHROMIUM_PATH` names the browser.
// `fetchPage` and `search-layer providers` both read it from here.

/** `SEARCH_LAYER_BROWSER`: unset, empty or `off` leaves rendering off; `chromium` turns it on. */
const BrowserSchema = z.enum(['chromium', 'off'])

/** How pages are rendered, from the environment. */
export interface RenderSettings {
  /** True when `SEARCH_LAYER_BROWSER=chromium`. */
  enabled: boolean
  /** `CHROMIUM_PATH`, or `chromium` (looked up on `PATH` when launched). */
  executablePath: string
}

/**
 * Reads `SEARCH_LAYER_BROWSER` and `CHROMIUM_PATH` from `env` (default `process.env`).
 * @throws ConfigError naming `SEARCH_LAYER_BROWSER` and its value when it is neither `chromium` nor `off`.
 */
export function renderSettingsFromEnv(env: Record<string, string | undefined> = process.env): RenderSettings {
  const raw = env.SEARCH_LAYER_BROWSER?.trim().toLowerCase() ?? ''
  const parsed = BrowserSchema.safeParse(raw === '' ? 'off' : raw)
  if (!parsed.success)
    throw new ConfigError(
      `SEARCH_LAYER_BROWSER is ${JSON.stringify(env.SEARCH_LAYER_BROWSER?.slice(0, 40))}: allowed are "chromium" (render JavaScript-only pages) and "off"`,
      { variable: 'SEARCH_LAYER_BROWSER' },
    )
  const path = env.CHROMIUM_PATH?.trim()
  return { enabled: parsed.data === 'chromium', executablePath: path ? path : 'chromium' }
}

/**
 * The browser's executable as a full path: `executablePath` itself when it has a directory part, else the first match
 * on `PATH` (from `env`); undefined when there is no such executable file.
 */
export function findBrowserExecutable(
  executablePath: string,
  env: Record<string, string | undefined> = process.env,
): string | undefined {
  const executable = (file: string) => {
    try {
      accessSync(file, constants.X_OK)
      return true
    } catch {
      return false
    }
  }
  if (isAbsolute(executablePath) || executablePath.includes('/'))
    return executable(executablePath) ? executablePath : undefined
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && executable(join(dir, executablePath))) return join(dir, executablePath)
  }
  return undefined
}

/** Whether pages would be rendered: `on`, `off` (not asked for), or `unavailable` (asked for; no browser found). */
export interface RenderingStatus {
  state: 'on' | 'off' | 'unavailable'
  /** One line for people: the browser used, or why rendering is off or unavailable. */
  detail: string
}

/** True when playwright-core can be loaded from here (a bundle may leave it out). */
function playwrightInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('playwright-core')
    return true
  } catch {
    return false
  }
}

/**
 * `search-layer providers` and `doctor`: what `SEARCH_LAYER_BROWSER` and `CHROMIUM_PATH` amount to on this machine.
 * @throws ConfigError when `SEARCH_LAYER_BROWSER` is neither `chromium` nor `off`.
 */
export function renderingStatus(env: Record<string, string | undefined> = process.env): RenderingStatus {
  const settings = renderSettingsFromEnv(env)
  if (!settings.enabled)
    return { state: 'off', detail: 'set SEARCH_LAYER_BROWSER=chromium to render JavaScript-only pages' }
  if (!playwrightInstalled())
    return { state: 'unavailable', detail: 'playwright-core is not installed: npm install playwright-core' }
  const found = findBrowserExecutable(settings.executablePath, env)
  if (!found)
    return {
      state: 'unavailable',
      detail: `no executable ${settings.executablePath}${settings.executablePath.includes('/') ? '' : ' on PATH'}: install chromium or set CHROMIUM_PATH`,
    }
  return { state: 'on', detail: `headless ${found}` }
}
