import { randomUUID } from 'node:crypto'
import {
  type Stats,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { dirname, parse } from 'node:path'
import { UsageError } from '../io.js'

// Kernel and device trees: writing a "file" there talks to a driver or the kernel, never installs a skill.
const SPECIAL_ROOTS = ['/dev', '/proc', '/sys']

/**
 * Installs `content` at `target` (an absolute path) without ever writing through a symlink: the file and its
 * directory must not be symlinks, an existing file must be a regular file, and paths under /dev, /proc or /sys are
 * refused. The new file is written to a fresh temp file beside it (created exclusively) and renamed into place.
 * Throws `UsageError` (exit 2) saying what was refused; an existing different file needs `force`.
 */
export function installSkillFile(target: string, content: string, { force }: { force: boolean }): void {
  const dir = dirname(target)
  refuseSpecialRoot(dir)
  const dirStat = lstatIfExists(dir)
  if (dirStat?.isSymbolicLink())
    throw new UsageError(`${dir} is a symbolic link; skill install only writes into a real directory (give its target)`)
  if (dirStat && !dirStat.isDirectory()) throw new UsageError(`${dir} exists and is not a directory`)
  const existing = readExistingRegularFile(target)
  if (existing !== undefined && existing !== content && !force)
    throw new UsageError(`${target} exists and differs; pass --force to overwrite it`)
  if (existing === content) return
  mkdirSync(dir, { recursive: true })
  // 'wx' = O_CREAT | O_EXCL: fails on anything already there, a planted symlink included.
  const temp = `${target}.${randomUUID()}.tmp`
  try {
    writeFileSync(temp, content, { flag: 'wx', mode: 0o644 })
    renameSync(temp, target)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
}

// The nearest existing ancestor, resolved, so "/tmp/link-to-proc/x" is caught as well as "/proc/x".
function refuseSpecialRoot(dir: string): void {
  let probe = dir
  let real: string | undefined
  while (real === undefined) {
    try {
      real = realpathSync(probe)
    } catch {
      if (probe === parse(probe).root) return
      probe = dirname(probe)
    }
  }
  const full = real + dir.slice(probe.length)
  for (const root of SPECIAL_ROOTS)
    if (full === root || full.startsWith(`${root}/`) || dir === root || dir.startsWith(`${root}/`))
      throw new UsageError(`${dir} is under ${root}, a device or kernel tree; install into a normal directory`)
}

function lstatIfExists(path: string): Stats | undefined {
  try {
    return lstatSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

// O_NOFOLLOW refuses a symlink at the last component; O_NONBLOCK keeps a FIFO from blocking the open.
function readExistingRegularFile(path: string): string | undefined {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return undefined
    if (code === 'ELOOP' || code === 'EMLINK' || lstatIfExists(path)?.isSymbolicLink())
      throw new UsageError(`${path} is a symbolic link; skill install never writes through one (remove it first)`)
    throw error
  }
  try {
    const stat = fstatSync(fd)
    if (!stat.isFile()) throw new UsageError(`${path} exists and is not a regular file (${kindOf(stat)}); refusing`)
    return readFileSync(fd, 'utf8')
  } finally {
    closeSync(fd)
  }
}

function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory'
  if (stat.isFIFO()) return 'a FIFO'
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device'
  if (stat.isSocket()) return 'a socket'
  return 'not a file'
}
