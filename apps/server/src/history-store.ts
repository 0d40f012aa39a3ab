import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { randomUUID } from 'node:crypto'
import { dirname } from 'node:path'
import { redactSecrets } from '@search-layer/core'
import { callerList } from './caller-list.js'
import type { GuardedRedis } from './guarded-redis.js'
import type { HistoryEntry } from './schemas.js'

/** Recent searches per client: a capped Redis list, or a JSONL file while Redis is absent or down. */
export interface HistoryStore {
  add(entry: HistoryEntry): Promise<void>
  /** Newest first. */
  list(who: string, limit: number): Promise<HistoryEntry[]>
  clear(who: string): Promise<number>
  /** Forgets the caller's searches that finished at `when` (an entry's own ISO time); returns how many. */
  remove(who: string, when: string): Promise<number>
}

// History says who searched for what: owner-only whatever the umask. Modes apply only to what this creates; an
// existing directory keeps its own, and a compaction replaces the file with a 0600 one (never wider).
const PRIVATE_FILE_MODE = 0o600
const PRIVATE_DIR = { recursive: true, mode: 0o700 } as const

function parseLines(text: string): HistoryEntry[] {
  const out: HistoryEntry[] = []
  for (const line of text.split('\n')) {
    if (!line) continue
    try {
      const entry = JSON.parse(line) as HistoryEntry
      if (entry && typeof entry.query === 'string' && typeof entry.who === 'string') out.push(entry)
    } catch {
      // A torn last line after a crash is skipped, not fatal.
    }
  }
  return out
}

/** Creates the history store; `max` entries are kept per client. */
export function createHistoryStore(state: GuardedRedis, { file, max }: { file: string; max: number }): HistoryStore {
  let chain: Promise<unknown> = Promise.resolve()
  // File writes are serialised so a compaction never races an append.
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const next = chain.then(task)
    chain = next.catch(() => undefined)
    return next
  }
  const readAll = async () => {
    try {
      return parseLines(await readFile(file, 'utf8'))
    } catch {
      return []
    }
  }
  const rewrite = async (entries: HistoryEntry[]) => {
    await mkdir(dirname(file), PRIVATE_DIR)
    const temp = `${file}.${randomUUID()}.tmp`
    // Exclusive create: a fresh owner-only file, never an existing path or a planted symlink.
    await writeFile(temp, entries.map((e) => `${JSON.stringify(e)}\n`).join(''), {
      mode: PRIVATE_FILE_MODE,
      flag: 'wx',
    })
    await rename(temp, file)
  }
  let appendsSinceCompact = 0
  let pending: HistoryEntry[] = []
  let flush: Promise<void> | undefined
  // Entries arriving while a write is under way go out together in the next one: one append per batch.
  const fileAdd = (entry: HistoryEntry): Promise<void> => {
    pending.push(entry)
    flush ??= serial(async () => {
      const batch = pending
      pending = []
      flush = undefined
      const lines = batch.map((e) => `${JSON.stringify(e)}\n`).join('')
      // The directory exists after the first append: a mkdir per batch was 1.5 % of a busy server's CPU.
      try {
        await appendFile(file, lines, { mode: PRIVATE_FILE_MODE })
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
        await mkdir(dirname(file), PRIVATE_DIR)
        await appendFile(file, lines, { mode: PRIVATE_FILE_MODE })
      }
      appendsSinceCompact += batch.length
      if (appendsSinceCompact >= max) {
        appendsSinceCompact = 0
        const all = await readAll()
        const kept = new Map<string, number>()
        const keep = all.reverse().filter((e) => {
          const n = (kept.get(e.who) ?? 0) + 1
          kept.set(e.who, n)
          return n <= max
        })
        await rewrite(keep.reverse())
      }
    })
    return flush
  }
  const shared = callerList(state, 'history', max)

  return {
    async add(given) {
      // A query may be a URL with `user:password@`, or a pasted key: neither is written to Redis or the file.
      const entry = { ...given, query: redactSecrets(given.query) }
      await state.guard(
        'history add',
        (redis) => shared.push(redis, entry.who, entry),
        () => fileAdd(entry),
      )
    },
    async list(who, limit) {
      return state.guard(
        'history list',
        async (redis) => parseLines((await shared.range(redis, who, limit)).join('\n')),
        async () => {
          await chain
          return (await readAll())
            .filter((e) => e.who === who)
            .reverse()
            .slice(0, Math.min(limit, max))
        },
      )
    },
    async clear(who) {
      const local = await serial(async () => {
        const all = await readAll()
        const kept = all.filter((e) => e.who !== who)
        if (kept.length !== all.length) await rewrite(kept)
        return all.length - kept.length
      })
      const there = await state.guard(
        'history clear',
        (redis) => shared.clear(redis, who),
        () => 0,
      )
      return local + there
    },
    async remove(who, when) {
      const mine = (e: HistoryEntry) => e.who === who && e.when === when
      const local = await serial(async () => {
        const all = await readAll()
        const kept = all.filter((e) => !mine(e))
        if (kept.length !== all.length) await rewrite(kept)
        return all.length - kept.length
      })
      const there = await state.guard(
        'history remove',
        (redis) => shared.removeWhere(redis, who, (line) => parseLines(line).some(mine)),
        () => 0,
      )
      return local + there
    },
  }
}
