import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FileNotReadError, readBoundedTextFile } from './_bounded-file.js'

const dir = mkdtempSync(join(tmpdir(), 'sl-bounded-'))
const reason = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    return error instanceof FileNotReadError ? error.reason : `not a FileNotReadError: ${String(error)}`
  }
  return 'read'
}

describe('readBoundedTextFile', () => {
  it('reads a regular file as UTF-8, up to and at the bound', () => {
    const file = join(dir, 'ok.json')
    writeFileSync(file, '{"brave": "é"}')
    expect(readBoundedTextFile(file, 1024)).toBe('{"brave": "é"}')
    expect(readBoundedTextFile(file, Buffer.byteLength('{"brave": "é"}'))).toBe('{"brave": "é"}')
  })

  it('refuses a file over the bound, by size and by what it holds', () => {
    const file = join(dir, 'big.json')
    writeFileSync(file, ' '.repeat(2 * 1024 * 1024 + 1))
    expect(reason(() => readBoundedTextFile(file, 2 * 1024 * 1024))).toBe('larger than 2 MiB')
  })

  it.runIf(process.platform === 'linux')('counts what it reads, not what stat says: /proc files say 0 bytes', () => {
    expect(readBoundedTextFile('/proc/self/status', 1024 * 1024)).toMatch(/^Name:/)
    expect(reason(() => readBoundedTextFile('/proc/self/status', 16))).toBe('larger than 16 bytes')
  })

  it.runIf(process.platform !== 'win32')('refuses what has no end or is no file: a device, a pipe, a directory', () => {
    expect(reason(() => readBoundedTextFile('/dev/zero', 1024))).toBe('not a regular file')
    const fifo = join(dir, 'pipe')
    execFileSync('mkfifo', [fifo])
    // Without a writer: a blocking open would wait here for ever.
    expect(reason(() => readBoundedTextFile(fifo, 1024))).toBe('not a regular file')
    expect(reason(() => readBoundedTextFile(dir, 1024))).toBe('a directory, not a file')
  })

  it('lets the fs error through for a file that is not there', () => {
    expect(() => readBoundedTextFile(join(dir, 'missing.json'), 1024)).toThrow(
      expect.objectContaining({ code: 'ENOENT' }),
    )
  })
})
