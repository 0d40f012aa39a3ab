import { createRequire } from 'node:module'
import type { Browser } from 'playwright-core'

// One headless Chromium shared by every render of a renderer: launched on first use, closed when idle, launched again
// after it crashed or was closed. playwright-core is loaded here, on first launch only, so a process that never
// renders never loads it: through `require` (it is CommonJS), which also works where `import()` does not (the CLI's
// search script runs from V8's code cache as a CommonJS script) and which bundlers leave alone.

/** Chromium's flags: headless, and nothing that talks to the network on its own or bypasses request interception. */
function chromiumArgs(maxHeapMb: number): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
    // Every request is answered by page-fetch through `route`; whatever would still leave the browser (a request
    // interception misses) goes to a proxy that is not there, loopback included.
    '--proxy-server=http://127.0.0.1:9',
    '--proxy-bypass-list=<-loopback>',
    `--js-flags=--max-old-space-size=${maxHeapMb}`,
  ]
}

export interface BrowserSessionOptions {
  executablePath: string
  maxHeapMb: number
  /** Close the browser after this long without a render. */
  idleCloseMs: number
}

/** Launches, shares, idles out and relaunches one browser; `acquire` and `release` bracket each render. */
export class BrowserSession {
  private browser: Promise<Browser> | undefined
  private active = 0
  private idleTimer: NodeJS.Timeout | undefined

  constructor(private readonly options: BrowserSessionOptions) {}

  /** True while a browser is launched (or launching). */
  get open(): boolean {
    return this.browser !== undefined
  }

  /** The shared browser, launched when there is none; pair with `release`. Rejects when it cannot be launched. */
  async acquire(): Promise<Browser> {
    this.active += 1
    clearTimeout(this.idleTimer)
    this.idleTimer = undefined
    try {
      this.browser ??= this.launch()
      return await this.browser
    } catch (error) {
      this.release()
      throw error
    }
  }

  /** Ends one render's use; the last one starts the idle timer. */
  release(): void {
    this.active = Math.max(0, this.active - 1)
    if (this.active > 0 || !this.browser) return
    clearTimeout(this.idleTimer)
    this.idleTimer = setTimeout(() => void this.close(), this.options.idleCloseMs)
    this.idleTimer.unref()
  }

  /** Closes the browser now (killing its processes); the next `acquire` launches a new one. */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer)
    this.idleTimer = undefined
    const current = this.browser
    this.browser = undefined
    const browser = await current?.catch(() => undefined)
    await browser?.close().catch(() => {})
  }

  private launch(): Promise<Browser> {
    const launching = (async () => {
      const { chromium } = createRequire(import.meta.url)('playwright-core') as typeof import('playwright-core')
      const browser = await chromium.launch({
        executablePath: this.options.executablePath,
        args: chromiumArgs(this.options.maxHeapMb),
        // Playwright's own default arguments stay; the user-data directory is a new empty one per launch.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      })
      // A crashed or killed browser is dropped, so the next render launches a new one.
      browser.on('disconnected', () => {
        if (this.browser === launching) this.browser = undefined
      })
      return browser
    })()
    // A failed launch is not kept: the next render tries again.
    launching.catch(() => {
      if (this.browser === launching) this.browser = undefined
    })
    return launching
  }
}

/** A counting semaphore: at most `size` holders at once, the rest wait in order (or until their signal aborts). */
export class Slots {
  private used = 0
  private readonly waiting: (() => void)[] = []

  constructor(private readonly size: number) {}

  /** Waits for a free slot; rejects with the signal's reason if it aborts first. Pair with `free`. */
  take(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason)
    if (this.used < this.size) {
      this.used += 1
      return Promise.resolve()
    }
    return new Promise<void>((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', onAbort)
        this.used += 1
        resolve()
      }
      const onAbort = () => {
        const at = this.waiting.indexOf(grant)
        if (at >= 0) this.waiting.splice(at, 1)
        reject(signal.reason)
      }
      this.waiting.push(grant)
      signal.addEventListener('abort', onAbort, { once: true })
    })
  }

  free(): void {
    this.used = Math.max(0, this.used - 1)
    this.waiting.shift()?.()
  }
}
