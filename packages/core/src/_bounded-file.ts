import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'

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
 * The text (UTF-8) of a file a user pointed at (a config file, a cassette): read only if it is a regular file of at
 * most `maxBytes`, so a path to `/dev/zero`, a pipe or a runaway log ends in an error naming it instead of a read
 * with no end. Counted as read, not as `stat` says (`/proc` files say 0).
 * @throws FileNotReadError for a directory, device or pipe, or a file over `maxBytes`; the `fs` error otherwise
 *   (ENOENT, EACCES…).
 */
export function readBoundedTextFile(file: string, maxBytes: number): string {
  const fd = openSync(file, OPEN_FLAGS)
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile())
      throw new FileNotReadError(file, stats.isDirectory() ? 'a directory, not a file' : 'not a regular file')
    const tooLarge = () => new FileNotReadError(file, `larger than ${size(maxBytes)}`)
    if (stats.size > maxBytes) throw tooLarge()
    const chunks: Buffer[] = []
    let total = 0
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK)
      const read = readSync(fd, chunk, 0, CHUNK, null)
      if (read === 0) break
      total += read
      if (total > maxBytes) throw tooLarge()
      chunks.push(chunk.subarray(0, read))
    }
    return Buffer.concat(chunks, total).toString('utf8')
  } finally {
    closeSync(fd)
  }
}
