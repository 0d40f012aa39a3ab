import { type ChildProcess, fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { childProfileArgs } from './_context.js'
import type { EmulatedService, Fault, GithubIssueSpec } from '@search-layer/testkit'

/** One logged upstream request, timing only. */
interface RemoteSpan {
  service: EmulatedService
  path: string
  status?: number
  startedAt: number
  endedAt?: number
}

/** The testkit emulator running in a child process; the subset of its API the bench needs. */
export interface RemoteEmulator {
  url: string
  env: Record<string, string>
  pid: number
  latency(service: EmulatedService, ms: number): Promise<void>
  fault(service: EmulatedService, fault: Fault | null): Promise<void>
  reset(): Promise<void>
  count(service?: EmulatedService): Promise<number>
  maxInFlight(service?: EmulatedService): Promise<number>
  /** Position in the request log, for `spans(since)`. */
  mark(): Promise<number>
  spans(since: number): Promise<RemoteSpan[]>
  addIssue(spec: GithubIssueSpec): Promise<void>
  /** Serves `body` as an HTML page at `path` of the `pages` service. */
  page(path: string, body: string): Promise<void>
  rssBytes(): Promise<number>
  close(): Promise<void>
}

const CHILD = fileURLToPath(new URL('./emulator-child.js', import.meta.url))

/** Starts the emulator child (fixed added latency for every service) and waits until it listens. */
export async function startRemoteEmulator({ latencyMs = 0 }: { latencyMs?: number } = {}): Promise<RemoteEmulator> {
  const child: ChildProcess = fork(CHILD, [], {
    env: { ...process.env, BENCH_EMULATOR_LATENCY_MS: String(latencyMs) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    execArgv: childProfileArgs('emulator'),
  })
  let nextId = 1
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  const ready = new Promise<{ url: string; env: Record<string, string> }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('emulator child did not start within 15 s')), 15_000)
    child.once('exit', (code) => reject(new Error(`emulator child exited early (code ${code})`)))
    child.on(
      'message',
      (message: {
        ready?: boolean
        id?: number
        ok?: boolean
        value?: unknown
        error?: string
        url?: string
        env?: Record<string, string>
      }) => {
        if (message.ready) {
          clearTimeout(timer)
          resolve({ url: message.url!, env: message.env! })
          return
        }
        const entry = waiting.get(message.id!)
        if (!entry) return
        waiting.delete(message.id!)
        if (message.ok) entry.resolve(message.value)
        else entry.reject(new Error(`emulator: ${message.error}`))
      },
    )
  })
  child.on('exit', () => {
    for (const entry of waiting.values()) entry.reject(new Error('emulator child exited'))
    waiting.clear()
  })
  const { url, env } = await ready
  const call = <T>(message: Record<string, unknown>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject })
      child.send({ id, ...message })
    })
  return {
    url,
    env,
    pid: child.pid!,
    latency: (service, ms) => call({ op: 'latency', service, ms }),
    fault: (service, fault) => call({ op: 'fault', service, fault }),
    reset: () => call({ op: 'reset' }),
    count: (service) => call({ op: 'count', service }),
    maxInFlight: (service) => call({ op: 'maxInFlight', service }),
    mark: () => call({ op: 'mark' }),
    spans: (since) => call({ op: 'spans', since }),
    addIssue: (spec) => call({ op: 'addIssue', spec }),
    page: (path, body) => call({ op: 'page', path, body, contentType: 'text/html; charset=utf-8' }),
    rssBytes: () => call({ op: 'rss' }),
    async close() {
      if (child.exitCode !== null || !child.connected) return
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      await call({ op: 'close' }).catch(() => undefined)
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      await exited
      clearTimeout(timer)
    },
  }
}
