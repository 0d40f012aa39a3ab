import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSearchLayer } from '@search-layer/engine'
import { ADVERSARIAL_TEXTS, longestLoopDelay } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { beforeAll, describe, expect, it } from 'vitest'
import { createToolExecutors } from './executors.js'

const emu = useEmulator({ resetEachTest: false })
let env: Record<string, string>

beforeAll(async () => {
  env = { ...emu.env, HOME: mkdtempSync(join(tmpdir(), 'sl-tools-loop-')), SEARCH_LAYER_KEYLESS: 'off' }
})

/** About `chars` characters of one adversarial input. */
const sized = (name: string, chars: number) => {
  const build = ADVERSARIAL_TEXTS[name]!
  return build(Math.ceil(chars / build(1).length))
}

// What a server runs for `extract_refs` is this executor on its one thread: while it reads a crafted issue,
// `/healthz` and every other request wait for the loop. Issue 36 measured 1.5 s for a 390 KB body like this.
describe('extract_refs on a pathological issue body', () => {
  it('keeps the event loop answering well inside the hold of the old scan', async () => {
    // Brackets, unclosed comments and `#1 ` in one 390 KB body, as in the issue; the first read warms up.
    const body = `${sized('open brackets', 130_000)}${sized('unclosed <!--', 130_000)}${sized('#1 on one line', 130_000)}`
    const numbers = [900, 901, 902, 903]
    for (const number of numbers) emu.github.addIssue({ owner: 'octo', repo: 'demo', number, title: 'x', body })
    const urls = numbers.map((n) => `https://github.com/octo/demo/issues/${n}`)
    const tools = createToolExecutors({
      layer: createSearchLayer({ env, rateLimits: false, providerRetries: 0 }),
      env,
    })
    // Warm: the first calls of a pattern run interpreted, which is start-up, not what a running server sees.
    await tools.extract_refs({ urls: urls.slice(0, 1) })
    // Wall time on a shared machine: a burst of other load can stall any loop once, the scan every time; the
    // lowest of up to three reads is kept.
    let delay = Number.POSITIVE_INFINITY
    for (const url of urls.slice(1)) {
      let result: Awaited<ReturnType<typeof tools.extract_refs>> | undefined
      const run = async () => {
        result = await tools.extract_refs({ urls: [url] })
      }
      delay = Math.min(delay, await longestLoopDelay(run))
      const results = (result!.data as { results: { refs: unknown[]; error?: unknown }[] }).results
      expect(results[0]!.error).toBeUndefined()
      expect(results[0]!.refs.length).toBeGreaterThan(0)
      if (delay < 100) break
    }
    // 100 ms is the goal, met when the machine is quiet (40-90 ms); a loaded two-core machine adds to it (the same
    // slicing in thread-fetch's readRefs read 393 ms in CI). The old scan held the loop 1.5 s or more on a quiet
    // host: the bound sits between.
    expect(delay).toBeLessThan(750)
  }, 60_000)
})
