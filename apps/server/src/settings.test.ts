import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError } from '@search-layer/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SERVER_SETTINGS, parseApiKeys, resolveServerOptions, serverOptionsFromEnv } from './settings.js'

describe('serverOptionsFromEnv', () => {
  it('has a default for every setting', () => {
    const options = serverOptionsFromEnv({ HOME: '/home/me' })
    expect(options).toMatchObject({
      port: 8787,
      host: '127.0.0.1',
      apiKeys: [],
      dataDir: '/home/me/.local/share/search-layer',
      clientRateLimit: 60,
      bodyLimitBytes: 65_536,
      maxQueryChars: 500,
      requestTimeoutMs: 30_000,
      logLevel: 'info',
    })
    expect(options.redisUrl).toBeUndefined()
  })

  it.each([
    ['SEARCH_LAYER_PORT', '9000', 'port', 9000],
    ['SEARCH_LAYER_HOST', '0.0.0.0', 'host', '0.0.0.0'],
    ['REDIS_URL', 'redis://10.0.0.5:6379/2', 'redisUrl', 'redis://10.0.0.5:6379/2'],
    ['SEARCH_LAYER_DATA_DIR', '/var/lib/sl', 'dataDir', '/var/lib/sl'],
    ['SEARCH_LAYER_CLIENT_RATE_LIMIT', '0', 'clientRateLimit', 0],
    ['SEARCH_LAYER_RATE_LIMITS', 'off', 'providerRateLimits', false],
    ['SEARCH_LAYER_RATE_LIMITS', 'brave=20,exa=10', 'providerRateLimits', { brave: 20, exa: 10 }],
    ['SEARCH_LAYER_MONTHLY_BUDGETS', 'tavily=1000', 'monthlyBudgets', { tavily: 1000 }],
    ['SEARCH_LAYER_LOG_LEVEL', 'debug', 'logLevel', 'debug'],
  ])('%s=%s sets %s', (name, value, field, expected) => {
    expect(serverOptionsFromEnv({ HOME: '/h', [name]: value })[field as 'port']).toEqual(expected)
  })

  it.each([
    ['SEARCH_LAYER_PORT', '70000'],
    ['SEARCH_LAYER_PORT', 'eighty'],
    ['REDIS_URL', 'http://localhost:6379'],
    ['SEARCH_LAYER_LOG_LEVEL', 'loud'],
    ['SEARCH_LAYER_MONTHLY_BUDGETS', 'bing=5'],
    ['SEARCH_LAYER_RATE_LIMITS', 'brave=-1'],
    ['SEARCH_LAYER_API_KEYS', 'short'],
  ])('a bad %s (%s) is a ConfigError naming the variable', (name, value) => {
    expect(() => serverOptionsFromEnv({ HOME: '/h', [name]: value })).toThrow(ConfigError)
    expect(() => serverOptionsFromEnv({ HOME: '/h', [name]: value })).toThrow(name)
  })

  it.each(['127.0.0.1', '0.0.0.0', '::', '::1', 'fe80::1%eth0', 'localhost', 'api.internal', 'host-1.example.com.'])(
    'accepts the host %s',
    (host) => {
      expect(serverOptionsFromEnv({ HOME: '/h' }, { host }).host).toBe(host)
    },
  )

  it.each(['', ' ', 'http://localhost', '127.0.0.1:8787', 'exa mple', 'host/path', '-lead.example', '[::1]'])(
    'refuses the host %j before listening, naming the flag or the variable',
    (host) => {
      expect(() => serverOptionsFromEnv({ HOME: '/h' }, { host })).toThrow(/--host: expected an IP address/)
      if (host !== '')
        expect(() => serverOptionsFromEnv({ HOME: '/h', SEARCH_LAYER_HOST: host })).toThrow(
          /SEARCH_LAYER_HOST: expected an IP address/,
        )
    },
  )

  it('reads SEARCH_LAYER_ALLOWED_HOSTS and --allowed-hosts (the flag wins), "all" as true, none as an empty list', () => {
    expect(serverOptionsFromEnv({ HOME: '/h' }).allowedHosts).toEqual([])
    const env = { HOME: '/h', SEARCH_LAYER_ALLOWED_HOSTS: 'Search.Lan,.corp.example' }
    expect(serverOptionsFromEnv(env).allowedHosts).toEqual(['search.lan', '.corp.example'])
    expect(serverOptionsFromEnv(env, { allowedHosts: ['all'] }).allowedHosts).toBe(true)
    expect(serverOptionsFromEnv({ HOME: '/h', SEARCH_LAYER_ALLOWED_HOSTS: 'all' }).allowedHosts).toBe(true)
  })

  it('resolves its own output again unchanged, as startServer does with serverOptionsFromEnv', () => {
    for (const env of [{ HOME: '/h' }, { HOME: '/h', SEARCH_LAYER_ALLOWED_HOSTS: '.corp.example,::1' }]) {
      const options = serverOptionsFromEnv(env)
      expect(resolveServerOptions(options, env)).toEqual(options)
    }
  })

  it('refuses a bad allowed host naming the flag or the variable, the value and the allowed forms', () => {
    expect(() => serverOptionsFromEnv({ HOME: '/h', SEARCH_LAYER_ALLOWED_HOSTS: 'search.lan:8787' })).toThrow(
      /SEARCH_LAYER_ALLOWED_HOSTS: "search\.lan:8787" is not a host name or IP address; expected a comma list/,
    )
    expect(() => serverOptionsFromEnv({ HOME: '/h' }, { allowedHosts: ['*.lan'] })).toThrow(
      /--allowed-hosts: write "\.lan" rather than "\*\.lan"/,
    )
  })

  it('flags win over env and are named in errors', () => {
    expect(serverOptionsFromEnv({ HOME: '/h', SEARCH_LAYER_PORT: '9000' }, { port: 9100 }).port).toBe(9100)
    expect(() => serverOptionsFromEnv({ HOME: '/h' }, { port: -1 })).toThrow('--port')
  })

  it('a bad API key never appears in the error', () => {
    try {
      serverOptionsFromEnv({ HOME: '/h', SEARCH_LAYER_API_KEYS: 'alice:sk-long-enough-key-1,bob:tiny' })
      expect.unreachable()
    } catch (error) {
      expect((error as Error).message).toContain('bob')
      expect((error as Error).message).not.toContain('tiny')
      expect((error as Error).message).not.toContain('sk-long-enough-key-1')
    }
  })

  it('documents every option field exactly once', () => {
    const names = SERVER_SETTINGS.map((s) => s.name)
    expect(new Set(names).size).toBe(names.length)
    const options = serverOptionsFromEnv({
      HOME: '/h',
      REDIS_URL: 'redis://x:1',
      SEARCH_LAYER_MONTHLY_BUDGETS: 'brave=1',
      SEARCH_LAYER_RATE_LIMITS: 'off',
    })
    expect(Object.keys(options).sort()).toEqual([...names].sort())
    for (const s of SERVER_SETTINGS) expect(s.env).toMatch(/^[A-Z_]+$/)
  })
})

describe('parseApiKeys', () => {
  it('reads a comma list; unnamed keys get a short hash identity, never the key', () => {
    const keys = parseApiKeys('alice:sk-alice-0123456789, tvly-anon-0123456789')
    expect(keys[0]).toEqual({ name: 'alice', key: 'sk-alice-0123456789' })
    expect(keys[1]!.name).toMatch(/^key-[0-9a-f]{8}$/)
    expect(keys[1]!.name).not.toContain('0123456789')
  })

  it('reads @file with one key per line, skipping blanks and comments', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sl-keys-'))
    const file = join(dir, 'keys')
    writeFileSync(file, '# team keys\nci:ci-key-0123456789\n\nops:ops-key-0123456789\r\n')
    expect(parseApiKeys(`@${file}`).map((k) => k.name)).toEqual(['ci', 'ops'])
  })

  it('a missing key file is a ConfigError naming the file', () => {
    expect(() => parseApiKeys('@/nonexistent/keys')).toThrow(/cannot read the key file \/nonexistent\/keys: ENOENT/)
  })

  // Each once hung the server's start (a device or a pipe without a writer is never at its end) or was read whole.
  it.runIf(process.platform !== 'win32')('a device, a pipe or a file over 1 MiB is a ConfigError saying why', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sl-keys-'))
    const pipe = join(dir, 'keys.pipe')
    execFileSync('mkfifo', [pipe])
    const big = join(dir, 'keys.big')
    writeFileSync(big, `ci:${'k'.repeat(1024 * 1024)}\n`)
    expect(() => parseApiKeys('@/dev/zero')).toThrow('cannot read the key file /dev/zero: not a regular file')
    expect(() => parseApiKeys(`@${pipe}`)).toThrow(`cannot read the key file ${pipe}: not a regular file`)
    expect(() => parseApiKeys(`@${big}`)).toThrow(`cannot read the key file ${big}: larger than 1 MiB`)
  })

  // Every way to set the variable without a key: each must refuse to start, never run without auth.
  it.each([
    ['empty', ''],
    ['a comma', ','],
    ['commas and blanks', ' , ,, '],
    ['blanks', '   '],
    ['a tab and a newline', '\t\n'],
  ])('SEARCH_LAYER_API_KEYS set to %s is a ConfigError saying what is allowed', (_, value) => {
    const attempt = () => serverOptionsFromEnv({ HOME: '/h', SEARCH_LAYER_API_KEYS: value })
    expect(attempt).toThrow(ConfigError)
    expect(attempt).toThrow(/SEARCH_LAYER_API_KEYS is set but holds no keys/)
    expect(attempt).toThrow(/unset the variable to run without auth/)
  })

  it.each([
    ['empty', ''],
    ['blank lines', '\n  \n\r\n'],
    ['only comments', '# keys go here\n# ci:ci-key-0123456789\n'],
    ['comments and blanks', '\n# nothing yet\n   \n'],
    ['a byte-order mark', '\uFEFF\n'],
  ])('a key file that is %s is a ConfigError naming the file', (_, text) => {
    const file = join(mkdtempSync(join(tmpdir(), 'sl-keys-')), 'keys')
    writeFileSync(file, text)
    const attempt = () => serverOptionsFromEnv({ HOME: '/h', SEARCH_LAYER_API_KEYS: `@${file}` })
    expect(attempt).toThrow(ConfigError)
    expect(attempt).toThrow(`SEARCH_LAYER_API_KEYS: the key file ${file} has no keys`)
  })

  it('an empty key file path (@) is a ConfigError, not "no auth"', () => {
    expect(() => serverOptionsFromEnv({ HOME: '/h', SEARCH_LAYER_API_KEYS: '@' })).toThrow(/cannot read the key file/)
  })

  it('unset means no auth', () => {
    expect(serverOptionsFromEnv({ HOME: '/h' }).apiKeys).toEqual([])
  })

  it('duplicate names are refused', () => {
    expect(() => parseApiKeys('a:key-one-0123456789,a:key-two-0123456789')).toThrow(/"a" is used twice/)
  })

  it('never throws anything but ConfigError, and never puts a key in the message', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (spec) => {
        try {
          const keys = parseApiKeys(spec.replace(/^@/, ''))
          for (const k of keys) expect(k.key.length).toBeGreaterThanOrEqual(8)
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError)
          // Names (before the first ':') are shown to say which entry is wrong; keys never are.
          const secrets = spec
            .replace(/^@/, '')
            .split(',')
            .map((entry) => (entry.indexOf(':') > 0 ? entry.slice(entry.indexOf(':') + 1) : entry).trim())
          for (const key of secrets) if (key.length >= 8) expect((error as Error).message).not.toContain(key)
        }
      }),
    )
  })
})

describe('SEARCH_LAYER_FETCH_TIMEOUT_MS', () => {
  it.each([
    [undefined, 20_000],
    ['5000', 5000],
  ])('%s gives page fetches %s ms', (value, expected) => {
    expect(serverOptionsFromEnv({ HOME: '/h', SEARCH_LAYER_FETCH_TIMEOUT_MS: value }).fetchTimeoutMs).toBe(expected)
  })

  it.each(['50', 'soon'])('%s is a ConfigError naming the variable', (value) => {
    expect(() => serverOptionsFromEnv({ HOME: '/h', SEARCH_LAYER_FETCH_TIMEOUT_MS: value })).toThrow(
      /SEARCH_LAYER_FETCH_TIMEOUT_MS/,
    )
  })
})
