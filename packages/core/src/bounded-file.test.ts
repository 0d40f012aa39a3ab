import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FileNotReadError, readBoundedTextFile, readBoundedTextFileSync } from './bounded-file.js'

const dir = mkdtempSync(join(tmpdir(), 'sl-bounded-'))
// Both readers, each as an async function of the same two arguments.
const readers = [
  ['readBoundedTextFileSync', async (file: string, max: number) => readBoundedTextFileSync(file, max)],
  ['readBoundedTextFile', readBoundedTextFile],
] as const

describe.each(readers)('%s', (name, read) => {
  const reason = async (file: string, max: number) => {
    try {
      await read(file, max)
    } catch (error) {
      return error instanceof FileNotReadError ? error.reason : `not a FileNotReadError: ${String(error)}`
    }
    return 'read'
  }

  it('reads a regular file as UTF-8, up to and at the bound, across chunks', async () => {
    const file = join(dir, 'ok.json')
    writeFileSync(file, '{"brave": "é"}')
    expect(await read(file, 1024)).toBe('{"brave": "é"}')
    expect(await read(file, Buffer.byteLength('{"brave": "é"}'))).toBe('{"brave": "é"}')
    const long = join(dir, 'long.txt')
    const text = 'é😀x'.repeat(50_000) // 350,000 bytes: several 64 KiB reads, characters split between them
    writeFileSync(long, text)
    expect(await read(long, 1024 * 1024)).toBe(text)
  })

  it('refuses a file over the bound, by size and by what it holds', async () => {
    const file = join(dir, 'big.json')
    writeFileSync(file, ' '.repeat(2 * 1024 * 1024 + 1))
    expect(await reason(file, 2 * 1024 * 1024)).toBe('larger than 2 MiB')
  })

  it.runIf(process.platform === 'linux')(
    'counts what it reads, not what stat says: /proc files say 0 bytes',
    async () => {
      expect(await read('/proc/self/status', 1024 * 1024)).toMatch(/^Name:/)
      expect(await reason('/proc/self/status', 16)).toBe('larger than 16 bytes')
    },
  )

  it.runIf(process.platform !== 'win32')(
    'refuses what has no end or is no file: a device, a pipe, a directory',
    async () => {
      expect(await reason('/dev/zero', 1024)).toBe('not a regular file')
      const fifo = join(dir, `pipe-${name}`)
      execFileSync('mkfifo', [fifo])
      // Without a writer: a blocking open would wait here for ever.
      expect(await reason(fifo, 1024)).toBe('not a regular file')
      expect(await reason(dir, 1024)).toBe('a directory, not a file')
    },
  )

  it('lets the fs error through for a file that is not there', async () => {
    await expect(read(join(dir, 'missing.json'), 1024)).rejects.toThrow(expect.objectContaining({ code: 'ENOENT' }))
  })
})
