import { readBoundedTextFile } from '@search-layer/core/config'
import { writePrivateFileAtomic } from './_private-files.js'

/** Counts provider calls per calendar month; memory, a file, or a shared store such as Redis. */
export interface UsageStore {
  /** Adds `by` calls and returns the new total for that provider and month. */
  increment(provider: string, month: string, by: number): Promise<number>
  get(provider: string, month: string): Promise<number>
}

/** `2026-11`, the budget period a date falls in (UTC). */
export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7)
}

/** Usage counted in memory (one process). */
export function createMemoryUsageStore(): UsageStore {
  const counts = new Map<string, number>()
  return {
    async increment(provider, month, by) {
      const key = `${provider}:${month}`
      const next = (counts.get(key) ?? 0) + by
      counts.set(key, next)
      return next
    },
    async get(provider, month) {
      return counts.get(`${provider}:${month}`) ?? 0
    },
  }
}

// A month's count per provider is a few bytes; a pipe or device in the file's place is no usage, not a hang.
const MAX_USAGE_FILE_BYTES = 1024 * 1024

/**
 * Usage counted in a JSON file (`{"2026-11": {"brave": 120}}`), so monthly budgets hold across CLI runs.
 * Writes are serialised within the process and atomic on disk; a new file is 0600 and new directories 0700.
 */
export function createFileUsageStore({ file }: { file: string }): UsageStore {
  let chain: Promise<unknown> = Promise.resolve()
  const read = async (): Promise<Record<string, Record<string, number>>> => {
    try {
      const data = JSON.parse(await readBoundedTextFile(file, MAX_USAGE_FILE_BYTES)) as unknown
      return data && typeof data === 'object' ? (data as Record<string, Record<string, number>>) : {}
    } catch {
      return {}
    }
  }
  return {
    increment(provider, month, by) {
      const next = chain.then(async () => {
        const data = await read()
        const bucket = data[month] ?? {}
        data[month] = bucket
        bucket[provider] = (bucket[provider] ?? 0) + by
        await writePrivateFileAtomic(file, JSON.stringify(data, null, 2))
        return bucket[provider]!
      })
      chain = next.catch(() => undefined)
      return next
    },
    async get(provider, month) {
      return (await read())[month]?.[provider] ?? 0
    },
  }
}
