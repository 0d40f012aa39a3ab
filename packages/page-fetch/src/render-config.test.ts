import { ConfigError } from '@search-layer/core'
import { describe, expect, it } from 'vitest'
import { renderSettingsFromEnv, renderingStatus } from './render-config.js'

describe('renderSettingsFromEnv', () => {
  it('leaves rendering off unless SEARCH_LAYER_BROWSER=chromium, with the system chromium by default', () => {
    expect(renderSettingsFromEnv({})).toEqual({ enabled: false, executablePath: 'chromium' })
    expect(renderSettingsFromEnv({ SEARCH_LAYER_BROWSER: 'off' }).enabled).toBe(false)
    expect(renderSettingsFromEnv({ SEARCH_LAYER_BROWSER: ' Chromium ' }).enabled).toBe(true)
    expect(renderSettingsFromEnv({ SEARCH_LAYER_BROWSER: 'chromium', CHROMIUM_PATH: '/opt/c/chrome' })).toEqual({
      enabled: true,
      executablePath: '/opt/c/chrome',
    })
  })

  it('refuses another value, naming the variable, the value and what is allowed', () => {
    const error = (() => {
      try {
        renderSettingsFromEnv({ SEARCH_LAYER_BROWSER: 'firefox' })
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(ConfigError)
    expect(error).toMatchObject({ variable: 'SEARCH_LAYER_BROWSER' })
    expect((error as Error).message).toBe(
      'SEARCH_LAYER_BROWSER is "firefox": allowed are "chromium" (render JavaScript-only pages) and "off"',
    )
  })
})

describe('renderingStatus', () => {
  it('is off, unavailable without the executable, and on with it', () => {
    expect(renderingStatus({}).state).toBe('off')
    expect(renderingStatus({ SEARCH_LAYER_BROWSER: 'chromium', PATH: '/nonexistent' })).toEqual({
      state: 'unavailable',
      detail: 'no executable chromium on PATH: install chromium or set CHROMIUM_PATH',
    })
    expect(renderingStatus({ SEARCH_LAYER_BROWSER: 'chromium', CHROMIUM_PATH: process.execPath })).toEqual({
      state: 'on',
      detail: `headless ${process.execPath}`,
    })
  })
})
