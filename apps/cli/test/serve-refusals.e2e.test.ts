import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runBin } from './_run.js'

// Every refusal is one plain line on stderr and exit 2: no stack, no second line, no server left running.
const expectOneLine = (result: { code: number; stdout: string; stderr: string }, message: RegExp) => {
  expect(result.code).toBe(2)
  expect(result.stdout).toBe('')
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1)
  expect(result.stderr.trimEnd()).toMatch(message)
  expect(result.stderr).not.toMatch(/\n\s+at /)
}

describe('search-layer serve refuses to start', () => {
  let taken: ReturnType<typeof createServer>
  let port: number
  beforeAll(async () => {
    taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    port = (taken.address() as { port: number }).port
  })
  afterAll(async () => {
    await new Promise((resolve) => taken.close(resolve))
  })

  it('on a port in use, naming --port and its value', async () => {
    expectOneLine(
      await runBin(['serve', '--port', String(port)]),
      new RegExp(
        `^search-layer serve: configuration error: --port ${port} is already in use on 127\\.0\\.0\\.1; .*\\(EADDRINUSE\\)$`,
      ),
    )
  })

  it('on a port in use given by SEARCH_LAYER_PORT, naming the variable', async () => {
    expectOneLine(
      await runBin(['serve'], { SEARCH_LAYER_PORT: String(port) }),
      new RegExp(`SEARCH_LAYER_PORT ${port} is already in use`),
    )
  })

  it.each([
    ['192.0.2.1', /--host "192\.0\.2\.1" is not an address of this machine; .*\(EADDRNOTAVAIL\)$/],
    [
      'no-such-host.invalid',
      /--host "no-such-host\.invalid" does not resolve to an address; .*\((ENOTFOUND|EAI_AGAIN)\)$/,
    ],
    ['http://localhost', /--host: expected an IP address .* \(got "http:\/\/localhost"\)$/],
    ['127.0.0.1:8787', /--host: expected an IP address .* \(got "127\.0\.0\.1:8787"\)$/],
    ['', /--host: expected an IP address .* \(got ""\)$/],
  ])('with --host %j, naming the flag and the value', async (host, message) => {
    expectOneLine(await runBin(['serve', '--port', '0', '--host', host]), message)
  })

  it('with SEARCH_LAYER_HOST unusable, naming the variable', async () => {
    expectOneLine(
      await runBin(['serve', '--port', '0'], { SEARCH_LAYER_HOST: 'exa mple' }),
      /SEARCH_LAYER_HOST: expected an IP address .* \(got "exa mple"\)$/,
    )
  })

  it.each([
    [
      'search.lan:8787',
      /--allowed-hosts: "search\.lan:8787" is not a host name or IP address; expected a comma list .*"all" to turn the check off$/,
    ],
    ['*.lan', /--allowed-hosts: write "\.lan" rather than "\*\.lan"/],
    ['', /--allowed-hosts: holds no host names/],
    ['all,search.lan', /--allowed-hosts: "all" turns the check off and cannot be combined with host names/],
  ])('with --allowed-hosts %j, naming the flag and the allowed forms', async (value, message) => {
    expectOneLine(await runBin(['serve', '--port', '0', '--allowed-hosts', value]), message)
  })

  it('with SEARCH_LAYER_ALLOWED_HOSTS unusable, naming the variable', async () => {
    expectOneLine(
      await runBin(['serve', '--port', '0'], { SEARCH_LAYER_ALLOWED_HOSTS: 'http://search.lan' }),
      /SEARCH_LAYER_ALLOWED_HOSTS: "http:\/\/search\.lan" is not a host name or IP address/,
    )
  })

  it.each([
    ['empty', ''],
    ['a comma', ','],
    ['blanks and commas', ' ,  , '],
  ])('with SEARCH_LAYER_API_KEYS set but %s', async (_, value) => {
    expectOneLine(
      await runBin(['serve', '--port', '0'], { SEARCH_LAYER_API_KEYS: value }),
      /^search-layer serve: configuration error: SEARCH_LAYER_API_KEYS is set but holds no keys .*unset the variable to run without auth$/,
    )
  })

  it.each([
    ['empty', ''],
    ['only comments and blank lines', '# production keys\n\n# ci:ci-key-0123456789\n'],
  ])('with a key file that is %s, naming the file', async (_, text) => {
    const file = join(mkdtempSync(join(tmpdir(), 'sl-keys-')), 'keys')
    writeFileSync(file, text)
    expectOneLine(
      await runBin(['serve', '--port', '0'], { SEARCH_LAYER_API_KEYS: `@${file}` }),
      new RegExp(`SEARCH_LAYER_API_KEYS: the key file ${file} has no keys`),
    )
  })
})
