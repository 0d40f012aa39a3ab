import { describe, expect, it } from 'vitest'
import { parseEmulatorArgs, runEmulatorCli } from './index.js'

function sink() {
  let text = ''
  return {
    write: (s: string) => (text += s),
    get text() {
      return text
    },
  }
}

describe('parseEmulatorArgs', () => {
  it.each([
    [[], { port: 0, host: '127.0.0.1' }],
    [['--port', '4010'], { port: 4010, host: '127.0.0.1' }],
    [['--port=4010', '--latency', '25'], { port: 4010, host: '127.0.0.1', latencyMs: 25 }],
    [['--host', '0.0.0.0'], { port: 0, host: '0.0.0.0' }],
  ])('%j', (argv, args) => {
    expect(parseEmulatorArgs(argv)).toEqual({ ok: true, args })
  })

  it.each([
    [['--bogus'], /Unknown flag "--bogus"/],
    [['--port'], /--port needs a value/],
    [['--port', 'abc'], /--port must be a non-negative integer/],
    [['--port', '70000'], /at most 65535/],
    [['--latency', '-5'], /--latency must be a non-negative integer/],
  ])('rejects %j', (argv, message) => {
    const parsed = parseEmulatorArgs(argv)
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.message).toMatch(message)
  })
})

describe('runEmulatorCli', () => {
  it('prints base URLs and export lines, and the server answers', async () => {
    const stdout = sink()
    const stderr = sink()
    const { code, emulator } = await runEmulatorCli(['--latency', '0'], { stdout, stderr })
    try {
      expect(code).toBe(0)
      expect(stdout.text).toContain(`listening on ${emulator!.url}`)
      expect(stdout.text).toContain(`export BRAVE_API_URL=${emulator!.urls.brave}`)
      expect(stdout.text).toContain('export SEARCH_LAYER_ALLOW_PRIVATE_HOSTS=1')
      expect((await fetch(`${emulator!.urls.pages}/article`)).status).toBe(200)
    } finally {
      await emulator?.close()
    }
  })

  it('exits 2 with a message on bad flags', async () => {
    const stderr = sink()
    expect(await runEmulatorCli(['--nope'], { stdout: sink(), stderr })).toEqual({ code: 2 })
    expect(stderr.text).toMatch(/Unknown flag/)
  })

  it('exits 1 when the port is taken', async () => {
    const first = await runEmulatorCli([], { stdout: sink(), stderr: sink() })
    const port = new URL(first.emulator!.url).port
    const stderr = sink()
    try {
      expect((await runEmulatorCli(['--port', port], { stdout: sink(), stderr })).code).toBe(1)
      expect(stderr.text).toMatch(/EADDRINUSE/)
    } finally {
      await first.emulator!.close()
    }
  })
})
