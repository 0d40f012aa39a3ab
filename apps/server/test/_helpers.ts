import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import type { Emulator } from '@search-layer/testkit'
import { type RunningServer, type StartServerOptions, startServer } from '../src/index.js'

/** A pino destination that keeps every JSON line, to assert on logs. */
function captureLogs(): { stream: Writable; lines: () => Record<string, unknown>[]; text: () => string } {
  const chunks: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk))
      done()
    },
  })
  const text = () => chunks.join('')
  return {
    stream,
    text,
    lines: () =>
      text()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  }
}

// biome-ignore lint/suspicious/noExplicitAny: test-only access into response JSON
export type Json = Record<string, any>
/** A fetch Response whose JSON is loosely typed for assertions. */
type Reply = Omit<Response, 'json'> & { json(): Promise<Json> }

export interface Booted extends RunningServer {
  logs: ReturnType<typeof captureLogs>
  dataDir: string
  /** fetch relative to the server, JSON body when `json` is given. */
  call(path: string, init?: RequestInit & { json?: unknown; key?: string }): Promise<Reply>
}

/** Starts a real server on a free loopback port against the emulator, with no config file and no signal handlers. */
export async function boot(
  emu: Emulator,
  options: StartServerOptions & { envOverride?: Record<string, string | undefined> } = {},
): Promise<Booted> {
  const home = mkdtempSync(join(tmpdir(), 'sl-server-home-'))
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'sl-server-data-'))
  const logs = captureLogs()
  const { envOverride, ...rest } = options
  // The keyed engines only, as these tests expect: keyless sources (always configured, answering when every engine
  // fails) and Bocha are off unless a test turns them on.
  const env: Record<string, string | undefined> = {
    ...emu.env,
    HOME: home,
    SEARCH_LAYER_KEYLESS: 'off',
    BOCHA_API_KEY: '',
    ...envOverride,
  }
  const server = await startServer({
    env,
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
    dataDir,
    logStream: logs.stream,
    clientRateLimit: 0,
    providerRateLimits: false,
    logLevel: 'info',
    ...rest,
  })
  const call = (path: string, init: RequestInit & { json?: unknown; key?: string } = {}) => {
    const { json, key, ...requestInit } = init
    const headers = new Headers(requestInit.headers)
    if (json !== undefined) headers.set('content-type', 'application/json')
    if (key) headers.set('authorization', `Bearer ${key}`)
    return fetch(`${server.url}${path}`, {
      ...requestInit,
      headers,
      ...(json !== undefined && { method: requestInit.method ?? 'POST', body: JSON.stringify(json) }),
    }) as Promise<Reply>
  }
  return { ...server, logs, dataDir, call }
}

/** Provider requests the emulator has seen. */
export const upstreamCalls = (emu: Emulator) =>
  emu.requests.filter((r) => ['brave', 'exa', 'tavily', 'grok'].includes(r.service)).length

/** Only Tavily configured, as in the original product brief. */
export const TAVILY_ONLY = {
  BRAVE_API_KEY: undefined,
  EXA_API_KEY: undefined,
  XAI_API_KEY: undefined,
  GROK_API_KEY: undefined,
}
