import { redactSecrets } from '@search-layer/core'
import { callerList } from './caller-list.js'
import type { GuardedRedis } from './guarded-redis.js'
import type { ToolCallEntry } from './schemas.js'

/** One tool call an agent made through `/api/tools/*` or `/mcp`, as logged: the listed entry and who made it. */
type LoggedToolCall = ToolCallEntry & {
  /** The client identity (API-key name or hash), never the key. */
  who: string
}

/** Recent tool calls per client: a capped Redis list, or a capped in-process list while Redis is absent or down. */
export interface ToolCallLog {
  add(entry: LoggedToolCall): Promise<void>
  /** Newest first. */
  list(who: string, limit: number): Promise<LoggedToolCall[]>
  clear(who: string): Promise<number>
}

/** Argument JSON longer than this is cut: a log line, not an archive. */
export const MAX_ARGS_CHARS = 2000
/** Result or error text kept per call. */
export const MAX_SUMMARY_CHARS = 300
/** Callers remembered in process; the least recently active is forgotten first. */
const MAX_LOCAL_CALLERS = 1000

/** Clips and redacts text for the log. */
export function clip(text: string, max: number): string {
  const safe = redactSecrets(text)
  return safe.length > max ? `${safe.slice(0, max - 1)}…` : safe
}

/** Creates the per-caller tool-call log keeping `max` calls per caller. */
export function createToolCallLog(state: GuardedRedis, { max }: { max: number }): ToolCallLog {
  const local = new Map<string, LoggedToolCall[]>()
  const localAdd = (entry: LoggedToolCall) => {
    const list = local.get(entry.who) ?? []
    local.delete(entry.who)
    list.unshift(entry)
    if (list.length > max) list.length = max
    local.set(entry.who, list)
    if (local.size > MAX_LOCAL_CALLERS) local.delete(local.keys().next().value!)
  }
  const parse = (lines: string[]) =>
    lines.flatMap((line) => {
      try {
        const entry = JSON.parse(line) as LoggedToolCall
        return entry && typeof entry.tool === 'string' ? [entry] : []
      } catch {
        return []
      }
    })
  const shared = callerList(state, 'tool-calls', max)
  return {
    async add(entry) {
      await state.guard(
        'tool-call add',
        (redis) => shared.push(redis, entry.who, entry),
        () => localAdd(entry),
      )
    },
    list(who, limit) {
      return state.guard(
        'tool-call list',
        async (redis) => parse(await shared.range(redis, who, limit)),
        () => (local.get(who) ?? []).slice(0, limit),
      )
    },
    async clear(who) {
      const here = local.get(who)?.length ?? 0
      local.delete(who)
      const there = await state.guard(
        'tool-call clear',
        (redis) => shared.clear(redis, who),
        () => 0,
      )
      return here + there
    },
  }
}
