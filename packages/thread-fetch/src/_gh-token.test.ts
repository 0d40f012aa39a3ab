import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseGhHosts, readGhToken } from './_gh-token.js'

describe('parseGhHosts', () => {
  it.each([
    [
      'classic layout',
      'github.com:\n    user: octocat\n    oauth_token: gho_abc\n    git_protocol: https\n',
      'github.com',
      'gho_abc',
    ],
    [
      'multi-account layout',
      'github.com:\n    users:\n        octocat:\n            oauth_token: gho_nested\n    git_protocol: ssh\n    user: octocat\n',
      'github.com',
      'gho_nested',
    ],
    ['quoted value', 'github.com:\n  oauth_token: "gho_quoted"\n', 'github.com', 'gho_quoted'],
    [
      'the right host of several',
      'ghe.example.com:\n  oauth_token: ghe_token\ngithub.com:\n  oauth_token: gho_public\n',
      'ghe.example.com',
      'ghe_token',
    ],
    ['keyring-only config', 'github.com:\n    git_protocol: https\n    user: octocat\n', 'github.com', undefined],
    ['another host only', 'ghe.example.com:\n  oauth_token: ghe_token\n', 'github.com', undefined],
    ['empty file', '', 'github.com', undefined],
  ])('%s', (_name, text, host, token) => {
    expect(parseGhHosts(text, host)).toBe(token)
  })
})

describe('readGhToken', () => {
  it("reads gh's hosts.yml under the home's .config when XDG_CONFIG_HOME or GH_CONFIG_DIR is empty", () => {
    const home = mkdtempSync(join(tmpdir(), 'sl-gh-token-'))
    mkdirSync(join(home, '.config', 'gh'), { recursive: true })
    writeFileSync(join(home, '.config', 'gh', 'hosts.yml'), 'github.com:\n    oauth_token: gho_home\n')
    expect(readGhToken('github.com', { env: {}, homeDir: home })).toBe('gho_home')
    // Empty is unset (XDG Base Directory spec), not a folder relative to the working directory.
    expect(readGhToken('github.com', { env: { XDG_CONFIG_HOME: '', GH_CONFIG_DIR: '' }, homeDir: home })).toBe(
      'gho_home',
    )
  })

  it.runIf(process.platform !== 'win32')('finds no token, without waiting, where hosts.yml is a pipe or huge', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sl-gh-token-'))
    execFileSync('mkfifo', [join(dir, 'hosts.yml')]) // no writer: an unbounded read would wait for ever
    expect(readGhToken('github.com', { env: { GH_CONFIG_DIR: dir } })).toBeUndefined()
    const big = mkdtempSync(join(tmpdir(), 'sl-gh-token-'))
    writeFileSync(join(big, 'hosts.yml'), `github.com:\n    oauth_token: gho_x\n${'#'.repeat(1024 * 1024)}\n`)
    expect(readGhToken('github.com', { env: { GH_CONFIG_DIR: big } })).toBeUndefined()
  })
})
