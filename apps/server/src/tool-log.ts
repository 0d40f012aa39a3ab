import { redactSecrets } from '@search-layer/core'
import { callerList } from './caller-list.js'
import type { GuardedRedis } from './guarded-redis.js'

/** One tool call an agent made through `/api/tools/*` or `/mcp`. */
export interface ToolCallEntry {
  id: string
  tool: string
  via: 'api' | 'mcp'
  /** ISO time the call started. */
  at: string
  ms: number
  /** The arguments as JSON, secrets redacted, cut at `MAX_ARGS_CHARS`. */
  args: string
  /** `ok`; `error`: the tool answered with isError; `failed`: the request itself failed (bad input, timeout…). */
  outcome: 'ok' | 'error' | 'failed'
  /** HTTP status of the request that carried the call. */
  status: number
  /** The start of the result text or the error message. */
  summary: string
  /** The client identity (API-key name or hash), never the key. */
  who: string
}

/** Recent tool calls per client: a capped Redis list, or a capped in-process list while Redis is absent or down. */
export interface ToolCallLog {
  add(entry: ToolCallEntry): Promise<void>
  /** Newest first. */
  list(who: string, limit: number): Promise<ToolCallEntry[]>
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
  const local = new Map<string, ToolCallEntry[]>()
  const localAdd = (entry: ToolCallEntry) => {
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
        const entry = JSON.parse(line) as ToolCallEntry
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
