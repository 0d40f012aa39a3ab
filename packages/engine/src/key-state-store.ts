import { PROVIDER_ERROR_KINDS, type ProviderErrorKind, safeParseJson } from '@search-layer/core'
import { FileNotReadError, readBoundedTextFile, readBoundedTextFileSync } from '@search-layer/core/config'
import type { RateLimitReading } from '@search-layer/core/http'
import { z } from 'zod'
import { MAX_LATENCY_SAMPLES, type LearnedLatency } from './_latency.js'
import { writePrivateFileAtomic, writePrivateFileAtomicSync } from './_private-files.js'

/** What the vendor's headers said about one key, and when (epoch ms). */
export interface LearnedLimits extends RateLimitReading {
  learnedAt: number
}

/** What is remembered about one key of a provider, stored under the key's hash (`apiKeyId`), never the key. */
export interface KeyState {
  limits?: LearnedLimits
  /** The key rests until then (epoch ms): its circuit opened here, in an earlier run or on another instance. */
  restUntil?: number
  lastError?: { kind: ProviderErrorKind; message: string }
  /** How long the key's calls took lately (`_latency.ts`). */
  latency?: LearnedLatency
}

/** Where key state lives: memory (one process), a file (the CLI, across runs) or Redis (every server instance). */
export interface KeyStateStore {
  get(provider: string, keyId: string): Promise<KeyState | undefined>
  set(provider: string, keyId: string, state: KeyState): Promise<void>
}

// The latest time a `Date` can hold: a stored time beyond it (a hand-edited file) would throw when formatted.
const MAX_DATE_MS = 8.64e15
const time = z.number().finite().nonnegative().max(MAX_DATE_MS)
const count = z.number().finite().nonnegative()
const DAY_MS = 24 * 60 * 60_000

/** A stored `KeyState`; anything else read back (an old or hand-edited file, another version's Redis entry) is ignored. */
export const KeyStateSchema = z.object({
  limits: z
    .object({
      learnedAt: time,
      perSecond: count.optional(),
      remaining: count.optional(),
      resetAt: time.optional(),
      quotaLimit: count.optional(),
      quotaRemaining: count.optional(),
      quotaResetAt: time.optional(),
      retryAt: time.optional(),
    })
    .optional(),
  restUntil: time.optional(),
  lastError: z.object({ kind: z.enum(PROVIDER_ERROR_KINDS as [ProviderErrorKind]), message: z.string() }).optional(),
  latency: z
    .object({
      updatedAt: time,
      // A call lasts no longer than a day whatever a file says: a sample past that is not one.
      samples: z
        .array(z.object({ ms: z.number().finite().nonnegative().max(DAY_MS), late: z.literal(true).optional() }))
        .max(MAX_LATENCY_SAMPLES),
    })
    .optional(),
})

/** Told, once per problem, what stored key state was ignored and why (a log line; never thrown). */
export type KeyStateProblemLog = (message: string) => void

// Nothing is silent by default: a process given no log still sees a Node warning on stderr.
const warnProcess: KeyStateProblemLog = (message) => process.emitWarning(message, 'SearchLayerKeyState')

/** A log that tells each message once (a store reads the same bad entry at every search). */
function onceEach(log: KeyStateProblemLog = warnProcess): KeyStateProblemLog {
  const told = new Set<string>()
  return (message) => {
    if (told.has(message) || told.size > 100) return
    told.add(message)
    log(message)
  }
}

const firstIssue = (error: z.ZodError) => {
  const issue = error.issues[0]
  return issue ? `${issue.path.join('.') || '(top)'}: ${issue.message}` : 'malformed'
}

/**
 * Parses a stored state, freshly read JSON (a valid one is returned as is, not copied); undefined for anything
 * malformed, told to `log` with `where` it came from. Latency samples are a hint: a bad or oversized set of them is
 * dropped alone, the key's limits and rest kept. Zod's own first parse of this schema costs ~2 ms, on a CLI search's
 * way to its first call.
 */
export function parseKeyState(value: unknown, log?: KeyStateProblemLog, where = 'key state'): KeyState | undefined {
  const parsed = safeParseJson(KeyStateSchema, value)
  if (parsed.success) return parsed.data
  if (value && typeof value === 'object' && 'latency' in value) {
    const { latency: _ignored, ...rest } = value as Record<string, unknown>
    const without = safeParseJson(KeyStateSchema, rest)
    if (without.success) {
      log?.(`${where}: latency samples ignored (${firstIssue(parsed.error)}); they will be learned again`)
      return without.data
    }
  }
  log?.(`${where} ignored (${firstIssue(parsed.error)}); the key starts from the defaults`)
  return undefined
}

/** Key state in memory, for one process. */
export function createMemoryKeyStateStore(): KeyStateStore {
  const states = new Map<string, KeyState>()
  return {
    async get(provider, keyId) {
      return states.get(`${provider}:${keyId}`)
    },
    async set(provider, keyId, state) {
      states.set(`${provider}:${keyId}`, state)
    },
  }
}

// Limits learned long ago say nothing about the key now (a plan changes, a month ends): they are dropped.
const FORGET_AFTER_MS = 40 * 24 * 60 * 60_000

/** The states a key-state file holds; a malformed file or entry counts as none. Throws only on unparsable JSON. */
function statesFromFile(text: string, file: string, log: KeyStateProblemLog): Record<string, KeyState> {
  const data: unknown = JSON.parse(text)
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    log(`key-state file ${file} ignored: not a JSON object`)
    return {}
  }
  const out: Record<string, KeyState> = {}
  for (const [id, value] of Object.entries(data)) {
    const state = parseKeyState(value, log, `key-state file ${file}, entry "${id}"`)
    if (state) out[id] = state
  }
  return out
}

// A file that is not there is the usual first run; any other failure to read it is worth a line.
// A key's state is a few hundred bytes; thousands of keys fit in 4 MiB. Past it (or a pipe, a device) the file is
// ignored like an unreadable one, with a warning, and the next write replaces it.
const MAX_KEY_STATE_BYTES = 4 * 1024 * 1024

function unreadable(file: string, error: unknown, log: KeyStateProblemLog): Record<string, KeyState> {
  if ((error as NodeJS.ErrnoException)?.code === 'ENOENT') return {}
  const why = error instanceof FileNotReadError ? error.reason : ((error as Error)?.message ?? String(error))
  log(`key-state file ${file} ignored: ${why}`)
  return {}
}

/** The file's next text: what it held, with `updates` over it, without states nobody refreshed in a long time. */
function stateFileText(stored: Record<string, KeyState>, updates: ReadonlyMap<string, KeyState>, now: number): string {
  for (const [id, state] of updates) stored[id] = state
  const fresh = (state: KeyState) =>
    Math.max(state.limits?.learnedAt ?? 0, state.restUntil ?? 0, state.latency?.updatedAt ?? 0) > now - FORGET_AFTER_MS
  const kept = Object.fromEntries(Object.entries(stored).filter(([, state]) => fresh(state)))
  return `${JSON.stringify(kept, null, 2)}\n`
}

/**
 * Key state in a JSON file (`{"brave:1a2b3c4d5e6f": {...}}`), so what one CLI run learned paces the next. Writes are
 * serialised within the process, merged with what other processes wrote, atomic on disk; a new file is 0600 and new
 * directories 0700. States set while a write is under way are written together by the next one. An unreadable or
 * malformed file is an empty one.
 */
export function createFileKeyStateStore({
  file,
  now = Date.now,
  log: logTo,
}: {
  file: string
  now?: () => number
  /** Where ignored entries are told (default: a Node warning). */
  log?: KeyStateProblemLog
}): KeyStateStore {
  const log = onceEach(logTo)
  let chain: Promise<unknown> = Promise.resolve()
  const read = async (): Promise<Record<string, KeyState>> => {
    try {
      return statesFromFile(await readBoundedTextFile(file, MAX_KEY_STATE_BYTES), file, log)
    } catch (error) {
      return unreadable(file, error, log)
    }
  }
  // Reads that start together (each provider's pool reads its keys as a search starts) share one read of the file.
  let reading: Promise<Record<string, KeyState>> | undefined
  const readShared = () => {
    reading ??= read().finally(() => {
      reading = undefined
    })
    return reading
  }
  // A search's answers teach several keys within a few milliseconds, each set a read, a write and a rename of the
  // file in turn, and the CLI waits for the last before it exits. Sets that come while the previous write is under
  // way join one batch: one read and one write for all of them.
  let batch: { states: Map<string, KeyState>; written: Promise<void> } | undefined
  const nextBatch = () => {
    const states = new Map<string, KeyState>()
    const written = chain.then(async () => {
      batch = undefined
      await writePrivateFileAtomic(file, stateFileText(await read(), states, now()))
    })
    chain = written.catch(() => undefined)
    return { states, written }
  }
  return {
    async get(provider, keyId) {
      await chain
      return (await readShared())[`${provider}:${keyId}`]
    },
    set(provider, keyId, state) {
      batch ??= nextBatch()
      batch.states.set(`${provider}:${keyId}`, state)
      return batch.written
    },
  }
}

/** A key-state store that keeps what it is told until `save()`; see `createOneShotKeyStateStore`. */
export interface OneShotKeyStateStore extends KeyStateStore {
  /** Writes every state set so far into the file (merged with what other processes wrote meanwhile), synchronously. */
  save(): void
}

/**
 * Key state in the same JSON file as `createFileKeyStateStore`, for a process that makes one search and exits (a
 * CLI command): the file is read once, at the first `get`; states set stay in memory until `save()` writes them
 * all at once. Synchronous on purpose: the process has nothing else to do meanwhile, and the file store's chain of
 * thread-pool round trips (read, mkdir, write, rename) kept a CLI search waiting 4–5 ms before it could exit
 * (timing marks), against 1–2 ms for the same work done synchronously. A failed read is an empty file; a failed save
 * loses only pacing hints (the next run starts at the default pace), so `save` never throws.
 */
export function createOneShotKeyStateStore({
  file,
  now = Date.now,
  log: logTo,
}: {
  file: string
  now?: () => number
  /** Where ignored entries are told (default: a Node warning). */
  log?: KeyStateProblemLog
}): OneShotKeyStateStore {
  const log = onceEach(logTo)
  const readNow = (): Record<string, KeyState> => {
    try {
      return statesFromFile(readBoundedTextFileSync(file, MAX_KEY_STATE_BYTES), file, log)
    } catch (error) {
      return unreadable(file, error, log)
    }
  }
  let stored: Record<string, KeyState> | undefined
  const updates = new Map<string, KeyState>()
  return {
    async get(provider, keyId) {
      const id = `${provider}:${keyId}`
      stored ??= readNow()
      return updates.get(id) ?? stored[id]
    },
    async set(provider, keyId, state) {
      updates.set(`${provider}:${keyId}`, state)
    },
    save() {
      if (updates.size === 0) return
      try {
        writePrivateFileAtomicSync(file, stateFileText(readNow(), updates, now()))
        updates.clear()
      } catch {
        // Pacing hints only: see above.
      }
    },
  }
}
