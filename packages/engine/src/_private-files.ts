import { randomUUID } from 'node:crypto'
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

// Cached answers and usage counts say what a user searched for: owner-only, whatever the umask. Modes apply only
// to what is created here; an existing file or directory keeps its own (never widened).
const PRIVATE_DIR_MODE = 0o700
const PRIVATE_FILE_MODE = 0o600

/** Creates `dir` (and missing parents) owner-only (0700). */
async function mkdirPrivate(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
}

/**
 * Writes `file` atomically and owner-only (0600): a fresh temp file beside it, created exclusively (so never through
 * a planted symlink), then renamed over it.
 */
export async function writePrivateFileAtomic(file: string, data: string): Promise<void> {
  await mkdirPrivate(dirname(file))
  const temp = tempBeside(file)
  await writeFile(temp, data, { mode: PRIVATE_FILE_MODE, flag: 'wx' })
  await rename(temp, file)
}

/** `writePrivateFileAtomic`, synchronously: for a process about to exit, where waiting on the thread pool costs more. */
export function writePrivateFileAtomicSync(file: string, data: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE })
  const temp = tempBeside(file)
  writeFileSync(temp, data, { mode: PRIVATE_FILE_MODE, flag: 'wx' })
  renameSync(temp, file)
}

/** A fresh name beside `file` for the copy that is renamed over it. */
const tempBeside = (file: string): string => `${file}.${randomUUID()}.tmp`
