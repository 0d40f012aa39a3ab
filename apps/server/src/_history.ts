import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { randomUUID } from 'node:crypto'
import { dirname } from 'node:path'
import type { SharedState } from './_shared-state.js'

/** One remembered search. */
export interface HistoryEntry {
  query: string
  intent: string | null
  mode: string
  /** ISO time the search finished. */
  when: string
  count: number
  cached: boolean
  /** The client identity (API-key name or hash), never the key. */
  who: string
}

/** Recent searches per client: a capped Redis list, or a JSONL file while Redis is absent or down. */
export interface HistoryStore {
  add(entry: HistoryEntry): Promise<void>
  /** Newest first. */
  list(who: string, limit: number): Promise<HistoryEntry[]>
  clear(who: string): Promise<number>
}

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
export function createHistoryStore(state: SharedState, { file, max }: { file: string; max: number }): HistoryStore {
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
    await mkdir(dirname(file), { recursive: true })
    const temp = `${file}.${randomUUID()}.tmp`
    await writeFile(temp, entries.map((e) => `${JSON.stringify(e)}\n`).join(''))
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
        await appendFile(file, lines)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
        await mkdir(dirname(file), { recursive: true })
        await appendFile(file, lines)
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
  const listKey = (who: string) => state.key('history', who)

  return {
    async add(entry) {
      await state.guard(
        'history add',
        async (redis) => {
          await redis
            .multi()
            .lpush(listKey(entry.who), JSON.stringify(entry))
            .ltrim(listKey(entry.who), 0, max - 1)
            .exec()
        },
        () => fileAdd(entry),
      )
    },
    async list(who, limit) {
      return state.guard(
        'history list',
        async (redis) => parseLines((await redis.lrange(listKey(who), 0, limit - 1)).join('\n')),
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
      const shared = await state.guard(
        'history clear',
        async (redis) => {
          const n = await redis.llen(listKey(who))
          await redis.del(listKey(who))
          return n
        },
        () => 0,
      )
      return local + shared
    },
  }
}
