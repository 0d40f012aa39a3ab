// CPU time of this process by thread, from Linux's /proc/self/task/*/stat: the main thread apart from the others
// (worker threads, V8's and libuv's helpers). `process.cpuUsage()` sums them all, and Node 20 has no per-thread
// figure, so a scenario that runs work in workers reads this to say where its CPU went. Resolution: one clock tick
// (10 ms) per thread per reading, so sum many iterations before comparing.
import { readFileSync, readdirSync } from 'node:fs'

/** CPU milliseconds used so far: by the main thread and by all other threads of the process. */
export interface ThreadCpu {
  mainMs: number
  otherMs: number
}

/** Clock ticks per second of /proc's utime and stime (USER_HZ: 100 on Linux everywhere Node runs). */
const TICKS_PER_SECOND = 100

/** CPU by thread so far, or undefined where /proc is not there (macOS, Windows). */
export function threadCpu(): ThreadCpu | undefined {
  let tasks: string[]
  try {
    tasks = readdirSync('/proc/self/task')
  } catch {
    return undefined
  }
  const main = String(process.pid)
  const used = { mainMs: 0, otherMs: 0 }
  for (const tid of tasks) {
    const ms = taskCpuMs(tid)
    if (tid === main) used.mainMs += ms
    else used.otherMs += ms
  }
  return used
}

/** The difference `after - before`, or undefined when either is. */
export function threadCpuSince(before: ThreadCpu | undefined, after: ThreadCpu | undefined): ThreadCpu | undefined {
  if (!before || !after) return undefined
  return { mainMs: after.mainMs - before.mainMs, otherMs: after.otherMs - before.otherMs }
}

function taskCpuMs(tid: string): number {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
    // The command name (field 2) is in parentheses and may hold spaces: fields are counted after its `)`.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND
  } catch {
    // The thread ended between the listing and the read; a thread that ended takes its time with it, which is
    // why a worker pool is read while its workers are alive.
    return 0
  }
}
