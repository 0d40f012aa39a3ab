import type { SearchProgress } from '@search-layer/engine'
import { terminalSafe } from './terminal-text.js'

/** Where the status line is drawn: a terminal's stderr. */
export interface StatusStream {
  write(chunk: string): unknown
  columns?: number
}

/** One live line on a terminal, redrawn in place while a search waits, and erased before the result prints. */
export interface StatusLine {
  onProgress(event: SearchProgress): void
  /** Erases the line and stops the clock; drawing nothing after it. */
  clear(): void
}

interface EngineCalls {
  started: number
  finished: number
  failed: number
  /** ms of the slowest finished call. */
  slowestMs: number
  /** When the oldest still-running call started (ms since the line was created), or undefined when none runs. */
  runningSince: number | undefined
}

// Carriage return, then erase to the end of the line: the line is drawn again over itself.
const REDRAW = '\r\u001b[K'
const TICK_MS = 100

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/**
 * A search's progress as one line, `⠹ 1.3 s · 7/12 answered · brave ✓ 0.4 s · exa ✓ 1.1 s · tavily 2/3 · grok …
 * 1.3 s`: per engine, done (with its slowest call's time), still running (with how long), or failed. The clock ticks
 * every 100 ms so a slow engine's wait is seen to grow; the timer never keeps the process alive. The line is cut to
 * the terminal's width, since a line that wraps cannot be redrawn with a carriage return.
 */
export function createStatusLine(
  stream: StatusStream,
  { now = () => performance.now(), tickMs = TICK_MS }: { now?: () => number; tickMs?: number } = {},
): StatusLine {
  const engines = new Map<string, EngineCalls>()
  const startedAt = now()
  let frame = 0
  let cleared = false
  const draw = () => {
    if (cleared) return
    frame++
    stream.write(`${REDRAW}${fit(render(engines, now() - startedAt, frame), stream.columns)}`)
  }
  const timer = setInterval(draw, tickMs)
  timer.unref?.()
  return {
    onProgress(event) {
      record(engines, event, now() - startedAt)
      draw()
    },
    clear() {
      if (cleared) return
      cleared = true
      clearInterval(timer)
      stream.write(REDRAW)
    },
  }
}

function record(engines: Map<string, EngineCalls>, event: SearchProgress, at: number): void {
  const calls = engines.get(event.provider) ?? {
    started: 0,
    finished: 0,
    failed: 0,
    slowestMs: 0,
    runningSince: undefined,
  }
  engines.set(event.provider, calls)
  if (event.type === 'started') {
    calls.started++
    calls.runningSince ??= at
  } else if (event.type === 'done' || event.type === 'failed') {
    calls.finished++
    if (event.type === 'failed') calls.failed++
    calls.slowestMs = Math.max(calls.slowestMs, event.ms)
    if (calls.finished >= calls.started) calls.runningSince = undefined
  }
  // 'skipped' engines made no call: they are left off the line (the result's status line names them).
}

const SPINNER = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏'

function render(engines: ReadonlyMap<string, EngineCalls>, elapsedMs: number, frame: number): string {
  let started = 0
  let finished = 0
  const parts: string[] = []
  for (const [name, calls] of engines) {
    if (calls.started === 0) continue
    started += calls.started
    finished += calls.finished
    parts.push(`${name} ${engineState(calls, elapsedMs)}`)
  }
  const spinner = SPINNER[frame % SPINNER.length]
  const head = started === 0 ? 'starting' : finished < started ? `${finished}/${started} answered` : 'all answered'
  return terminalSafe([`${spinner} ${seconds(elapsedMs)}`, head, ...parts].join(' · '))
}

function engineState(calls: EngineCalls, elapsedMs: number): string {
  const running = calls.started - calls.finished
  if (running === 0) {
    const failed = calls.failed === calls.started ? '✗' : calls.failed > 0 ? `✓ ${calls.failed}✗` : '✓'
    return `${failed} ${seconds(calls.slowestMs)}`
  }
  // Running: how many of its calls answered, and how long the oldest one has waited so far.
  const waited = calls.runningSince === undefined ? '' : ` ${seconds(Math.max(0, elapsedMs - calls.runningSince))}`
  return `${calls.finished}/${calls.started}${waited}`
}

/** `line` cut to `columns - 1` characters (each counted as one column), with an ellipsis when cut. */
function fit(line: string, columns: number | undefined): string {
  if (!columns || columns < 2) return line
  const chars = Array.from(line)
  return chars.length < columns ? line : `${chars.slice(0, columns - 2).join('')}…`
}
