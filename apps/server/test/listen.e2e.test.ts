import { createServer } from 'node:net'
import { ConfigError } from '@search-layer/core'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { boot } from './_helpers.js'

const emu = useEmulator({ resetEachTest: false })

describe('listen failures are ConfigErrors naming port or host', () => {
  it('a port in use', async () => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const port = (taken.address() as { port: number }).port
    try {
      const failure = await boot(emu, { port }).then(
        () => undefined,
        (error: unknown) => error,
      )
      expect(failure).toBeInstanceOf(ConfigError)
      expect(failure).toMatchObject({
        field: 'port',
        message: `port ${port} is already in use on 127.0.0.1; stop the other server or pick another port (0 picks a free one) (EADDRINUSE)`,
      })
    } finally {
      await new Promise((resolve) => taken.close(resolve))
    }
  })

  it.each([
    // TEST-NET-1 (RFC 5737): never an address of this machine.
    ['192.0.2.1', /^host "192\.0\.2\.1" is not an address of this machine; .* \(EADDRNOTAVAIL\)$/],
    // .invalid never resolves (RFC 6761).
    [
      'no-such-host.invalid',
      /^host "no-such-host\.invalid" does not resolve to an address; .* \((ENOTFOUND|EAI_AGAIN)\)$/,
    ],
  ])('host %s', async (host, message) => {
    const failure = await boot(emu, { host }).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(ConfigError)
    expect(failure).toMatchObject({ field: 'host', message: expect.stringMatching(message) })
  })
})

describe('running without API keys', () => {
  const warned = (lines: Record<string, unknown>[]) => lines.some((l) => /^no API keys/.test(String(l.msg)))

  it('warns when the server is reachable from other machines', async () => {
    const srv = await boot(emu, { host: '0.0.0.0' })
    await srv.close()
    expect(warned(srv.logs.lines())).toBe(true)
  })

  it('warns when the Host check is off ("all"): DNS rebinding reaches the server again', async () => {
    const rebinding = (srv: Awaited<ReturnType<typeof boot>>) =>
      srv.logs.lines().some((l) => /^SEARCH_LAYER_ALLOWED_HOSTS=all without API keys/.test(String(l.msg)))
    const open = await boot(emu, { allowedHosts: true })
    await open.close()
    expect(rebinding(open)).toBe(true)
    const keyed = await boot(emu, { allowedHosts: true, apiKeys: [{ name: 'ci', key: 'ci-key-0123456789' }] })
    await keyed.close()
    expect(rebinding(keyed)).toBe(false)
  })

  it('is quiet on loopback, and with keys', async () => {
    const local = await boot(emu)
    await local.close()
    expect(warned(local.logs.lines())).toBe(false)
    const keyed = await boot(emu, { host: '0.0.0.0', apiKeys: [{ name: 'ci', key: 'ci-key-0123456789' }] })
    await keyed.close()
    expect(warned(keyed.logs.lines())).toBe(false)
  })
})
