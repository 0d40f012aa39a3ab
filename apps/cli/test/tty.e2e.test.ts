import { execFile, execFileSync } from 'node:child_process'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { BIN, emulatorEnv, runBin } from './_run.js'

// What a person sees on a terminal: the built bin under a real pseudo-terminal (util-linux `script`, no native
// module), against what a pipe gets.

const emu = useEmulator({ latencyMs: 150 })
const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()

const REDRAW = '\r\u001b[K'
const SGR = /\u001b\[[0-9;]*m/
const ESC = '\u001b'
const quote = (arg: string) => `'${arg.replace(/'/g, "'\\''")}'`

/** Runs the bin with stdout and stderr on one pseudo-terminal; resolves with everything the terminal received. */
function runOnTerminal(argv: string[], env: Record<string, string | undefined>) {
  const command = [process.execPath, BIN, ...argv].map(quote).join(' ')
  return new Promise<{ code: number; screen: string }>((resolve) => {
    execFile(
      'script',
      ['-qec', command, '/dev/null'],
      // A hang guard, not a speed check.
      { env: { PATH: process.env.PATH, COLUMNS: '200', ...env }, timeout: 60_000 },
      (error, stdout) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, screen: stdout }),
    )
  })
}

/** What was drawn before the result (the status line's redraws) and the result itself. */
function split(screen: string): { status: string; result: string } {
  const at = screen.lastIndexOf(REDRAW)
  return at === -1
    ? { status: '', result: screen }
    : { status: screen.slice(0, at), result: screen.slice(at + REDRAW.length) }
}

const QUERY = ['Bun vs Deno', '--mode', 'deep', '--no-cache']

describe.skipIf(!hasScript)('search on a terminal (built bin, pseudo-terminal)', () => {
  it('draws one status line in place while it waits, erases it, then prints rendered markdown', async () => {
    const { code, screen } = await runOnTerminal(QUERY, emulatorEnv(emu.env, { TERM: 'xterm-256color' }))
    expect(code, screen).toBe(0)
    const { status, result } = split(screen)
    // Redrawn over itself: many frames, never a new line, none of the per-call progress lines.
    expect(status.split(REDRAW).filter(Boolean).length).toBeGreaterThan(3)
    expect(status).not.toMatch(/[\r\n](?!\u001b\[K)/)
    // Engines in the order their calls started: slowest first by typical latency (Grok first, Brave last).
    expect(status).toMatch(/answered · grok .* · brave /)
    expect(screen).not.toMatch(/✓ brave: \d+ results in/)
    // The result: bold, underlined links and no markdown syntax left.
    expect(result).toMatch(SGR)
    expect(result).toContain('\u001b[1m')
    expect(result).toContain('\u001b[4m')
    expect(result).not.toContain('**')
    expect(result).not.toMatch(/\]\(https?:/)
  })

  it.each([
    ['NO_COLOR', { TERM: 'xterm-256color', NO_COLOR: '1' }],
    ['TERM=dumb', { TERM: 'dumb' }],
  ])('with %s the result is plain markdown', async (_name, extra) => {
    const { code, screen } = await runOnTerminal(QUERY, emulatorEnv(emu.env, extra))
    expect(code, screen).toBe(0)
    const { status, result } = split(screen)
    expect(result).not.toContain(ESC)
    expect(result).toMatch(/\[.+\]\(https?:\/\/.+\)/)
    // A dumb terminal cannot erase a line: it gets no status line at all.
    if (extra.TERM === 'dumb') expect(status + result).not.toContain(REDRAW)
  })

  it('--json on a terminal prints the same JSON, after the status line is erased', async () => {
    const { code, screen } = await runOnTerminal([...QUERY, '--json'], emulatorEnv(emu.env, { TERM: 'xterm' }))
    expect(code, screen).toBe(0)
    const body = JSON.parse(split(screen).result.replace(/\r\n/g, '\n')) as { providers: Record<string, unknown> }
    expect(Object.keys(body.providers)).toContain('brave')
  })
})

describe('search piped (built bin)', () => {
  it('markdown has no escape codes and stderr no status line', async () => {
    const r = await runBin([...QUERY, '--format', 'markdown'], emulatorEnv(emu.env, { TERM: 'xterm-256color' }))
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).not.toContain(ESC)
    expect(r.stdout).toMatch(/^- \[\d+\] \[.+\]\(https?:\/\/.+\)/m)
    expect(r.stderr).toBe('')
  })

  it('--verbose prints a line per call started and finished', async () => {
    const r = await runBin([...QUERY, '--json', '--verbose'], emulatorEnv(emu.env))
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/^… brave: "/m)
    expect(r.stderr).toMatch(/^✓ brave: \d+ results in \d+ ms$/m)
    expect(r.stderr).not.toContain(ESC)
    JSON.parse(r.stdout)
  })
})
