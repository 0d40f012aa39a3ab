import { describe, expect, it } from 'vitest'
import { run, runBin } from './_run.js'

describe('search-layer (built bin)', () => {
  it('--help lists the commands and exits 0', async () => {
    const r = await runBin(['--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Usage: search-layer <command>')
    expect(r.stdout).toContain('providers')
  })

  it('--version prints the package version', async () => {
    const r = await runBin(['--version'])
    expect(r.code).toBe(0)
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/)
  })

  it('providers shows configuration without any key', async () => {
    const key = 'BSAsupersecretkey0123456789'
    const r = await runBin(['providers'], { BRAVE_API_KEY: key, EXA_API_URL: 'http://127.0.0.1:1/exa' })
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/brave\s+yes/)
    expect(r.stdout).toMatch(/exa\s+no\s+set EXA_API_KEY/)
    expect(r.stdout).toContain('http://127.0.0.1:1/exa (env:EXA_API_URL)')
    expect(r.stdout + r.stderr).not.toContain(key)
    expect(r.stdout + r.stderr).not.toContain(key.slice(-6))
  })

  it('providers says a keyless source needs no key, which optional key it can use, and where a set one came from', async () => {
    const token = 'ghp_providerstable000000000000000000001'
    const bare = await runBin(['providers'], { GITHUB_TOKEN: '', GH_TOKEN: '', STACKEXCHANGE_KEY: '' })
    expect(bare.stdout).toMatch(/duckduckgo\s+yes\s+not needed\s/)
    expect(bare.stdout).toMatch(/stackexchange\s+yes\s+not needed \(optional: STACKEXCHANGE_KEY\)/)
    expect(bare.stdout).not.toContain('from null')
    const withToken = await runBin(['providers'], { GITHUB_TOKEN: token })
    expect(withToken.stdout).toMatch(/github\s+yes\s+set \(\d+ chars\) from env:GITHUB_TOKEN/)
    expect(withToken.stdout).not.toContain(token)
  })
})

describe('usage errors', () => {
  it.each([
    [['--bogus'], /unknown option --bogus for "search"/],
    [['nope'], /no search provider is configured/],
    [['providers', '--bogus'], /unknown option --bogus.*allowed: --json, --help/],
    [['providers', '--json=1'], /--json is a switch/],
    [['q', '--patience=-5'], /--patience must be a whole number from 0 to 120000 \(got "-5"\)/],
    [['q', '--patience', 'soon'], /--patience must be a whole number from 0 to 120000 \(got "soon"\)/],
    [['q', '--wait', 'some'], /--wait must be one of settled, all \(got "some"\)/],
  ])('%j exits 2 with an explanation', async (argv, message) => {
    // Keyless sources off: with no key, a search is the configuration error (not a real keyless search).
    const r = await run(argv, { SEARCH_LAYER_KEYLESS: 'off' })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/)
  })

  it('no arguments prints help to stderr and exits 2', async () => {
    const r = await run([])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('Usage:')
  })

  it('a malformed config file is a clear error naming the file, exit 2, no stack trace', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs')
    const { join } = await import('node:path')
    const { tmpdir } = await import('node:os')
    const dir = mkdtempSync(join(tmpdir(), 'sl-cli-'))
    const file = join(dir, 'config.json')
    writeFileSync(file, '{"brave": 12}')
    const r = await runBin(['providers'], { SEARCH_LAYER_CONFIG: file })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(file)
    expect(r.stderr).toContain('brave')
    expect(r.stderr).not.toContain('    at ')
  })

  it('providers --json is machine-readable', async () => {
    const r = await run(['providers', '--json'], { TAVILY_API_KEY: 'tvly-abcdef123456' })
    const parsed = JSON.parse(r.stdout)
    expect(parsed.providers.find((p: { name: string }) => p.name === 'tavily')).toMatchObject({
      configured: true,
      keySource: 'env:TAVILY_API_KEY',
    })
    expect(r.stdout).not.toContain('tvly-abcdef123456')
  })
})
