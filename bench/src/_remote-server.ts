import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { childProfileArgs } from './_context.js'

/** Memory of the server process, in bytes. */
interface ServerStats {
  rss: number
  peakRss: number
  heapUsed: number
  /** CPU time (user + system) the server process has used since it started, in ms. */
  cpuMs: number
}

/** The search-layer server running in a child process. */
export interface RemoteServer {
  url: string
  pid: number
  /** Current and peak RSS (bytes; peak sampled every 100 ms since start or the last `resetPeak`), heap in use. */
  stats(): Promise<ServerStats>
  resetPeak(): Promise<ServerStats>
  /** Forces a full garbage collection in the server and returns its stats after it: `heapUsed` is then live data. */
  collectGarbage(): Promise<ServerStats>
  close(): Promise<void>
}

const CHILD = fileURLToPath(new URL('./server-child.js', import.meta.url))

/**
 * Starts `startServer` from @search-layer/server in a child process pointed at `env` (the emulator's);
 * `nodeArgs` are Node/V8 flags for that process (what an operator would put in NODE_OPTIONS).
 */
export async function startRemoteServer(
  env: Record<string, string>,
  { nodeArgs = [] }: { nodeArgs?: readonly string[] } = {},
): Promise<RemoteServer> {
  const child = fork(CHILD, [], {
    env: { PATH: process.env.PATH ?? '', BENCH_SERVER_ENV: JSON.stringify(env) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    // --expose-gc only lets the bench ask for a collection (`collectGarbage`); V8 collects as usual otherwise.
    execArgv: ['--expose-gc', ...nodeArgs, ...childProfileArgs('server')],
  })
  let nextId = 1
  const waiting = new Map<number, (value: ServerStats) => void>()
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server child did not start within 15 s')), 15_000)
    child.once('exit', (code) => reject(new Error(`server child exited early (code ${code})`)))
    child.on('message', (message: { ready?: boolean; url?: string; id?: number; value?: ServerStats }) => {
      if (message.ready) {
        clearTimeout(timer)
        resolve(message.url!)
        return
      }
      waiting.get(message.id!)?.(message.value!)
      waiting.delete(message.id!)
    })
  })
  const call = (op: 'stats' | 'resetPeak' | 'gc' | 'close') =>
    new Promise<ServerStats>((resolve, reject) => {
      if (!child.connected) return reject(new Error('server child is gone'))
      const id = nextId++
      waiting.set(id, resolve)
      child.send({ id, op })
    })
  return {
    url,
    pid: child.pid!,
    stats: () => call('stats'),
    resetPeak: () => call('resetPeak'),
    collectGarbage: () => call('gc'),
    async close() {
      if (child.exitCode !== null || !child.connected) return
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      await call('close').catch(() => undefined)
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      await exited
      clearTimeout(timer)
    },
  }
}
