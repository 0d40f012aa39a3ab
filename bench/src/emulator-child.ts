// A testkit emulator in its own process, driven over IPC, so the code under test does not share its
// event loop (and CPU time) with the emulator's request handling.
import { type EmulatedService, type Fault, type GithubIssueSpec, startEmulator } from '@search-layer/testkit'

type Op =
  | { op: 'latency'; service: EmulatedService; ms: number }
  | { op: 'fault'; service: EmulatedService; fault: Fault | null }
  | { op: 'reset' }
  | { op: 'count'; service?: EmulatedService }
  | { op: 'maxInFlight'; service?: EmulatedService }
  | { op: 'mark' }
  | { op: 'spans'; since: number }
  | { op: 'addIssue'; spec: GithubIssueSpec }
  | { op: 'page'; path: string; body: string; contentType: string }
  | { op: 'rss' }
  | { op: 'close' }

const latencyMs = Number(process.env.BENCH_EMULATOR_LATENCY_MS ?? 0)
const emu = await startEmulator({ latencyMs })

function handle(message: Op): unknown {
  switch (message.op) {
    case 'latency':
      return emu.latency(message.service, message.ms)
    case 'fault':
      return emu.fault(message.service, message.fault)
    case 'reset':
      return emu.reset()
    case 'count':
      return emu.count(message.service)
    case 'maxInFlight':
      return emu.maxInFlight(message.service)
    case 'mark':
      return emu.requests.length
    case 'spans':
      // Only timing fields cross the process boundary: recorded headers carry the emulator's keys.
      return emu.requests.slice(message.since).map((r) => ({
        service: r.service,
        path: r.path,
        status: r.status,
        startedAt: r.startedAt,
        endedAt: r.endedAt,
      }))
    case 'addIssue':
      return emu.github.addIssue(message.spec)
    case 'page':
      return emu.pages.set(message.path, { body: message.body, contentType: message.contentType })
    case 'rss':
      return process.memoryUsage().rss
    case 'close':
      return undefined
  }
}

process.on('message', async (raw: { id: number } & Op) => {
  try {
    const value = handle(raw)
    process.send?.({ id: raw.id, ok: true, value })
    if (raw.op === 'close') {
      await emu.close()
      process.disconnect()
    }
  } catch (error) {
    process.send?.({ id: raw.id, ok: false, error: (error as Error).message })
  }
})
process.on('disconnect', () => {
  void emu.close().finally(() => process.exit(0))
})
process.send?.({ ready: true, url: emu.url, env: emu.env })
