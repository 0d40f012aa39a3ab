import { type Stats, closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'
import { open } from 'node:fs/promises'

/** Why a file was not read: what the user is told, beside the file's name. */
export class FileNotReadError extends Error {
  override readonly name = 'FileNotReadError'
  /** `not a regular file`, `larger than 1 MiB`. */
  readonly reason: string

  constructor(file: string, reason: string) {
    super(`${file} was not read: ${reason}`)
    this.reason = reason
  }
}

// Opening a named pipe for reading waits for a writer; non-blocking, the open returns and fstat says what it is.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)
const CHUNK = 64 * 1024

const MIB = 1024 * 1024
const size = (bytes: number) =>
  bytes >= MIB && bytes % MIB === 0
    ? `${bytes / MIB} MiB`
    : bytes >= 1024 && bytes % 1024 === 0
      ? `${bytes / 1024} KiB`
      : `${bytes} bytes`

/**
 * The text (UTF-8) of a file a user pointed at (a config file, a cassette, a key file) or one kept between runs (key
 * state, a cache entry): read only if it is a regular file of at most `maxBytes`, so a path to `/dev/zero`, a pipe or
 * a runaway log ends in an error naming it instead of a read with no end. Counted as read, not as `stat` says (`/proc`
 * files say 0).
 * @throws FileNotReadError for a directory, device or pipe, or a file over `maxBytes`; the `fs` error otherwise
 *   (ENOENT, EACCES…).
 */
export function readBoundedTextFileSync(file: string, maxBytes: number): string {
  const fd = openSync(file, OPEN_FLAGS)
  try {
    const bound = new Bound(file, maxBytes)
    bound.check(fstatSync(fd))
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK)
      const read = readSync(fd, chunk, 0, CHUNK, null)
      if (read === 0) return bound.text()
      bound.add(chunk, read)
    }
  } finally {
    closeSync(fd)
  }
}

/** `readBoundedTextFileSync` off the event loop's back: the same checks and errors, the reads awaited. */
export async function readBoundedTextFile(file: string, maxBytes: number): Promise<string> {
  const handle = await open(file, OPEN_FLAGS)
  try {
    const bound = new Bound(file, maxBytes)
    bound.check(await handle.stat())
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK)
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, null)
      if (bytesRead === 0) return bound.text()
      bound.add(chunk, bytesRead)
    }
  } finally {
    await handle.close()
  }
}

/** What both readers check: the kind of file, its stated size, and the bytes as they are counted. */
class Bound {
  private readonly chunks: Buffer[] = []
  private total = 0

  constructor(
    private readonly file: string,
    private readonly maxBytes: number,
  ) {}

  check(stats: Stats): void {
    if (!stats.isFile())
      throw new FileNotReadError(this.file, stats.isDirectory() ? 'a directory, not a file' : 'not a regular file')
    if (stats.size > this.maxBytes) throw this.tooLarge()
  }

  add(chunk: Buffer, read: number): void {
    this.total += read
    if (this.total > this.maxBytes) throw this.tooLarge()
    this.chunks.push(chunk.subarray(0, read))
  }

  text(): string {
    return Buffer.concat(this.chunks, this.total).toString('utf8')
  }

  private tooLarge(): FileNotReadError {
    return new FileNotReadError(this.file, `larger than ${size(this.maxBytes)}`)
  }
}
