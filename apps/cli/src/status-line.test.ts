import { afterEach, describe, expect, it, vi } from 'vitest'
import { createStatusLine } from './status-line.js'

const REDRAW = '\r\u001b[K'

function fakeTerminal(columns?: number) {
  const writes: string[] = []
  return { writes, stream: { write: (chunk: string) => writes.push(chunk), ...(columns && { columns }) } }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('createStatusLine', () => {
  it('redraws one line in place per event: answered and pending engines, with their times', () => {
    let now = 0
    const { writes, stream } = fakeTerminal()
    const line = createStatusLine(stream, { now: () => now })
    for (const provider of ['brave', 'exa'] as const) {
      line.onProgress({ type: 'started', provider, query: 'bun vs deno' })
      line.onProgress({ type: 'started', provider, query: 'bun deno benchmark' })
    }
    now = 450
    line.onProgress({ type: 'done', provider: 'brave', query: 'bun vs deno', results: 5, ms: 450 })
    line.onProgress({ type: 'done', provider: 'brave', query: 'bun deno benchmark', results: 5, ms: 430 })
    now = 1100
    line.onProgress({ type: 'done', provider: 'exa', query: 'bun vs deno', results: 5, ms: 1100 })
    const last = writes.at(-1)!
    expect(writes.every((w) => w.startsWith(REDRAW) && !w.includes('\n'))).toBe(true)
    expect(last).toContain('3/4 answered')
    expect(last).toContain('brave ✓ 0.5 s')
    // exa: one of two answered, the other still waiting since the start.
    expect(last).toContain('exa 1/2 1.1 s')
    line.clear()
    expect(writes.at(-1)).toBe(REDRAW)
  })

  it('says which engines failed and when every call has answered', () => {
    const { writes, stream } = fakeTerminal()
    const line = createStatusLine(stream, { now: () => 0 })
    line.onProgress({ type: 'started', provider: 'grok', query: 'q' })
    line.onProgress({ type: 'failed', provider: 'grok', query: 'q', kind: 'timeout', message: 'slow', ms: 2000 })
    line.onProgress({ type: 'skipped', provider: 'tavily', reason: 'no key' })
    expect(writes.at(-1)).toContain('all answered · grok ✗ 2.0 s')
    expect(writes.at(-1)).not.toContain('tavily')
    line.clear()
  })

  it('is cut to the terminal width, so a redraw never wraps onto a second line', () => {
    const { writes, stream } = fakeTerminal(30)
    const line = createStatusLine(stream, { now: () => 0 })
    for (const provider of ['brave', 'exa', 'tavily', 'grok'] as const)
      line.onProgress({ type: 'started', provider, query: 'q' })
    const drawn = writes.at(-1)!.slice(REDRAW.length)
    expect(Array.from(drawn)).toHaveLength(29)
    expect(drawn.endsWith('…')).toBe(true)
    line.clear()
  })

  it('ticks its clock while nothing happens, and draws nothing once cleared', () => {
    vi.useFakeTimers()
    let now = 0
    const { writes, stream } = fakeTerminal()
    const line = createStatusLine(stream, { now: () => now, tickMs: 100 })
    line.onProgress({ type: 'started', provider: 'grok', query: 'q' })
    now = 2300
    vi.advanceTimersByTime(100)
    expect(writes.at(-1)).toContain('2.3 s')
    expect(writes.at(-1)).toContain('grok 0/1 2.3 s')
    line.clear()
    const count = writes.length
    vi.advanceTimersByTime(1000)
    line.onProgress({ type: 'done', provider: 'grok', query: 'q', results: 1, ms: 2400 })
    line.clear()
    expect(writes).toHaveLength(count)
  })

  it('keeps control characters of a query or provider name off the terminal', () => {
    const { writes, stream } = fakeTerminal()
    const line = createStatusLine(stream, { now: () => 0 })
    line.onProgress({ type: 'started', provider: 'evil\u001b]0;title\u0007' as never, query: 'q' })
    expect(writes.at(-1)!.slice(REDRAW.length)).not.toMatch(/[\u0000-\u001f]/)
    line.clear()
  })
})
