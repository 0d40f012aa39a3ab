import { afterEach, describe, expect, it } from 'vitest'
import { describeGauges, gaugeHost } from './_host-gauge.js'

describe('gaugeHost', () => {
  // Fewer repetitions than a bench run's 9 starts and 7 rounds: the test checks what is measured, not the host.
  it('times a bare Node start and the fixed workload in fresh processes', async () => {
    const gauge = await gaugeHost({ nodeStarts: 3, workRounds: 3 })
    // A Node process takes milliseconds to start; the workload (20,000 rows through JSON, a sort and two regular
    // expressions) takes milliseconds too: both are positive, finite and far from a timeout.
    for (const ms of [gauge.nodeStartMs, gauge.cpuWorkMs]) {
      expect(Number.isFinite(ms)).toBe(true)
      expect(ms).toBeGreaterThan(0)
      expect(ms).toBeLessThan(10_000)
    }
  })
})

describe('gaugeHost, environment', () => {
  const saved = process.env.NODE_OPTIONS
  afterEach(() => {
    if (saved === undefined) delete process.env.NODE_OPTIONS
    else process.env.NODE_OPTIONS = saved
  })

  it('starts its processes with PATH alone, as the CLI rows do, whatever NODE_OPTIONS the caller has', async () => {
    // Inherited, this would stop every child at start-up.
    process.env.NODE_OPTIONS = '--require /nonexistent/search-layer-gauge-hook.cjs'
    const gauge = await gaugeHost({ nodeStarts: 1, workRounds: 1 })
    expect(gauge.nodeStartMs).toBeGreaterThan(0)
    expect(gauge.cpuWorkMs).toBeGreaterThan(0)
  })
})

describe('describeGauges', () => {
  it('names both gauges at the start and the end of a run', () => {
    const line = describeGauges({
      start: { nodeStartMs: 31.2, cpuWorkMs: 48.5 },
      end: { nodeStartMs: 35.9, cpuWorkMs: 55.1 },
    })
    expect(line).toBe(
      'Host gauge (p50; lower is a faster host): at the start `node -e 0` 31.2 ms, fixed CPU workload 48.5 ms; at the end `node -e 0` 35.9 ms, fixed CPU workload 55.1 ms.',
    )
  })
})
