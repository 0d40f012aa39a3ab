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

let tempCount = 0

/**
 * A fresh name beside `file` for the copy that is renamed over it: this process's id and count make it unique among
 * the writers of the moment, the random tail among processes that had the same id before (a temp file left by one
 * that died). Not node:crypto's randomUUID: loading node:crypto would cost a process that writes its key state on
 * its way out ~5 ms of CPU on Node 20, ~20 ms on Node 24. The name needs no secrecy: the file is created exclusively
 * (`wx`) in an owner-only directory.
 */
const tempBeside = (file: string): string =>
  `${file}.${process.pid}-${++tempCount}-${Math.random().toString(36).slice(2, 10)}.tmp`
