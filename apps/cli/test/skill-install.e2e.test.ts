import { execFileSync } from 'node:child_process'
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runBin } from './_run.js'

const temp = () => mkdtempSync(join(tmpdir(), 'sl-skill-safe-'))

const expectRefused = (result: { code: number; stderr: string }, message: RegExp) => {
  expect(result.code).toBe(2)
  expect(result.stderr).toMatch(message)
  expect(result.stderr).not.toMatch(/\n\s+at /)
}

describe('search-layer skill install never writes through a symlink or into a special file', () => {
  it('refuses a SKILL.md that is a symlink, leaving its target untouched, even with --force', async () => {
    const root = temp()
    const victim = join(root, 'victim.txt')
    writeFileSync(victim, 'precious')
    const dir = join(root, 'skill')
    mkdirSync(dir)
    symlinkSync(victim, join(dir, 'SKILL.md'))
    for (const extra of [[], ['--force']]) {
      expectRefused(
        await runBin(['skill', 'install', dir, ...extra]),
        /SKILL\.md is a symbolic link; .*never writes through one/,
      )
      expect(readFileSync(victim, 'utf8')).toBe('precious')
      expect(lstatSync(join(dir, 'SKILL.md')).isSymbolicLink()).toBe(true)
    }
  })

  it('refuses a dangling SKILL.md symlink (it would create the file it points to)', async () => {
    const root = temp()
    const dir = join(root, 'skill')
    mkdirSync(dir)
    symlinkSync(join(root, 'created-elsewhere'), join(dir, 'SKILL.md'))
    expectRefused(await runBin(['skill', 'install', dir, '--force']), /is a symbolic link/)
    expect(readdirSync(root).sort()).toEqual(['skill'])
  })

  it('refuses a directory that is a symlink', async () => {
    const root = temp()
    const real = join(root, 'real')
    mkdirSync(real)
    symlinkSync(real, join(root, 'link'))
    expectRefused(await runBin(['skill', 'install', join(root, 'link')]), /link is a symbolic link; .*real directory/)
    expect(readdirSync(real)).toEqual([])
  })

  it('refuses a SKILL.md that is a FIFO without blocking on it', async () => {
    const dir = temp()
    execFileSync('mkfifo', [join(dir, 'SKILL.md')])
    expectRefused(
      await runBin(['skill', 'install', dir, '--force']),
      /SKILL\.md exists and is not a regular file \(a FIFO\)/,
    )
  })

  it('refuses a SKILL.md that is a directory', async () => {
    const dir = temp()
    mkdirSync(join(dir, 'SKILL.md'))
    expectRefused(await runBin(['skill', 'install', dir, '--force']), /is not a regular file \(a directory\)/)
  })

  it('refuses a "directory" that is a file', async () => {
    const file = join(temp(), 'plain')
    writeFileSync(file, 'x')
    expectRefused(await runBin(['skill', 'install', file]), /plain exists and is not a directory/)
  })

  it.each(['/dev', '/dev/null', '/dev/shm', '/proc/self', '/proc/self/fd', '/sys/kernel'])(
    'refuses %s (device and kernel trees)',
    async (dir) => {
      expectRefused(
        await runBin(['skill', 'install', dir, '--force']),
        /is under \/(dev|proc|sys), a device or kernel tree/,
      )
    },
  )

  it('refuses a path that reaches /proc through a symlinked ancestor', async () => {
    const root = temp()
    symlinkSync('/proc/self', join(root, 'me'))
    expectRefused(await runBin(['skill', 'install', join(root, 'me', 'fd')]), /is under \/proc/)
  })

  it('replaces a regular file by rename: a hard link to the old file keeps the old content', async () => {
    const dir = temp()
    writeFileSync(join(dir, 'SKILL.md'), 'mine')
    execFileSync('ln', [join(dir, 'SKILL.md'), join(dir, 'hardlink')])
    expect((await runBin(['skill', 'install', dir, '--force'])).code).toBe(0)
    expect(readFileSync(join(dir, 'SKILL.md'), 'utf8')).toMatch(/^---\nname: search-layer/)
    expect(readFileSync(join(dir, 'hardlink'), 'utf8')).toBe('mine')
    expect(readdirSync(dir).sort()).toEqual(['SKILL.md', 'hardlink'])
  })

  it('still installs into a fresh nested directory', async () => {
    const dir = join(temp(), 'a', 'b')
    const result = await runBin(['skill', 'install', dir])
    expect(result.code).toBe(0)
    expect(lstatSync(join(dir, 'SKILL.md')).isFile()).toBe(true)
    expect(() => readlinkSync(join(dir, 'SKILL.md'))).toThrow()
  })
})
