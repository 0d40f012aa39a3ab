import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { type Emulator, startEmulator } from '@search-layer/testkit'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { type Booted, boot } from './_helpers.js'

/** A redis-server child process on a free loopback port. */
export interface RedisProcess {
  url: string
  port: number
  stop(): Promise<void>
  /** Starts it again on the same port (after `stop`). */
  restart(): Promise<void>
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })

const MISSING =
  'redis-server is not installed: install it (Debian/Ubuntu: apt-get install -y redis-server) — the scale-out tests need a real Redis'

function launch(port: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.env.REDIS_SERVER_BIN ?? 'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let output = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`redis-server did not become ready on port ${port} within 10 s:\n${output}`))
    }, 10_000)
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      reject(new Error(error.code === 'ENOENT' ? MISSING : `redis-server failed to start: ${error.message}`))
    })
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer)
        resolve(child)
      }
    })
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`redis-server exited with ${code} before it was ready:\n${output}`))
    })
  })
}

/** Starts a throwaway redis-server; rejects with install instructions when the binary is missing. */
async function startRedis(): Promise<RedisProcess> {
  const port = await freePort()
  let child: ChildProcess | undefined = await launch(port)
  const stop = async () => {
    const running = child
    child = undefined
    if (!running || running.exitCode !== null) return
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve())
      running.kill('SIGKILL')
    })
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    async restart() {
      await stop()
      child = await launch(port)
    },
  }
}

/**
 * The instances' Redis deadline unless a test sets its own. A Redis call that outlasts it falls back to the instance's
 * own state, which the other instance never sees: at 200 ms a loaded CI host (npm installs and Chromium beside it)
 * once put the second of two logged tool calls in process, and "listed on the other instance" failed. A test of a
 * dead or hung Redis sets a short one, so its calls stay short.
 */
const SHARING_REDIS_TIMEOUT_MS = 2000

/**
 * The hooks of a test file whose tests run server instances on one emulator and one real Redis: both start before
 * the file and stop after it, the emulator is reset and every instance closed after each test. `pair(options)` boots
 * two instances on the Redis (the options win); `emu` and `redis` are set once the file's hooks have run.
 */
export function useRedisPair(emulatorOptions: Parameters<typeof startEmulator>[0] = {}) {
  const servers: Booted[] = []
  const shared = { emu: undefined as unknown as Emulator, redis: undefined as unknown as RedisProcess }
  const closeServers = () => Promise.all(servers.splice(0).map((s) => s.close()))
  beforeAll(async () => {
    shared.emu = await startEmulator(emulatorOptions)
    shared.redis = await startRedis()
  })
  afterAll(async () => {
    await closeServers()
    await shared.redis?.stop()
    await shared.emu?.close()
  })
  beforeEach(() => shared.emu.reset())
  afterEach(closeServers)
  const pair = async (options: Parameters<typeof boot>[1] = {}) => {
    const settings = { redisUrl: shared.redis.url, redisTimeoutMs: SHARING_REDIS_TIMEOUT_MS, ...options }
    const a = await boot(shared.emu, settings)
    const b = await boot(shared.emu, settings)
    servers.push(a, b)
    return [a, b] as const
  }
  return { shared, pair }
}
