import { randomBytes } from 'node:crypto'
import { chmod, mkdir, readdir, rename, stat, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { type Env, InputError } from '@search-layer/core'
import { readBoundedTextFile } from '@search-layer/core/config'
import { z } from 'zod'
import { AskResultSchema, ConversationIdSchema } from './schema.js'

/** A saved conversation: its turns, oldest first. */
const ConversationSchema = z.object({
  id: ConversationIdSchema,
  createdAt: z.string(),
  turns: z.array(AskResultSchema).min(1),
})
export type Conversation = z.infer<typeof ConversationSchema>

/** Largest conversation file read back (bytes): a follow-up never loads an unbounded file. */
const MAX_CONVERSATION_BYTES = 8 * 1024 * 1024

/**
 * Where conversations are kept: `$SEARCH_LAYER_HISTORY_DIR`, else `$XDG_DATA_HOME/search-layer/conversations`,
 * else `~/.local/share/search-layer/conversations`.
 */
export function conversationsDir(env: Env = process.env): string {
  const explicit = env.SEARCH_LAYER_HISTORY_DIR?.trim()
  if (explicit) return explicit
  const data = env.XDG_DATA_HOME?.trim() || join(homedir(), '.local', 'share')
  return join(data, 'search-layer', 'conversations')
}

/**
 * A new conversation id: UTC date and time, then 64 random bits as hex (`20261207-012600-3f9a1c0b5e7d2a41`); the
 * id is all a caller of the server needs to continue a conversation, so it must not be guessable.
 */
export function newConversationId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)
  return `${stamp}-${randomBytes(8).toString('hex')}`
}

/** Loads a conversation; `InputError` naming `conversationId` when there is none with that id. */
export async function loadConversation(dir: string, id: string): Promise<Conversation> {
  const parsedId = ConversationIdSchema.safeParse(id)
  const unknown = () =>
    // The directory is named, not its path: on a server the path is the server's business (and a caller's scope).
    new InputError(
      `conversationId: no conversation ${JSON.stringify(id.slice(0, 80))} in the conversations directory.`,
      [{ path: 'conversationId', message: 'unknown conversation id' }],
    )
  if (!parsedId.success) throw unknown()
  let text: string
  try {
    // Bounded as it is read: a pipe, a device or a file over the bound is no conversation, and is not read whole.
    text = await readBoundedTextFile(join(dir, `${parsedId.data}.json`), MAX_CONVERSATION_BYTES)
  } catch {
    throw unknown()
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw unknown()
  }
  const parsed = ConversationSchema.safeParse(json)
  if (!parsed.success) throw unknown()
  return parsed.data
}

/** Writes a file readable by its owner only (0600), through a temporary file so a reader never sees half of it. */
export async function writePrivate(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 })
  const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`
  await writeFile(temporary, text, { mode: 0o600 })
  await chmod(temporary, 0o600)
  await rename(temporary, path)
}

/** Saves `<id>.json` in the conversations directory. */
export async function saveConversation(dir: string, conversation: Conversation): Promise<string> {
  const path = join(dir, `${conversation.id}.json`)
  await writePrivate(path, `${JSON.stringify(conversation, null, 2)}\n`)
  return path
}

/** One saved conversation as a list shows it. */
export interface ConversationSummary {
  id: string
  createdAt: string
  /** When it was last saved (its file's modification time). */
  updatedAt: string
  turns: number
  /** The first question, and the latest. */
  question: string
  lastQuestion: string
}

/** The conversations saved in `dir`, most recently saved first, at most `limit`; unreadable files are left out. */
export async function listConversations(dir: string, limit = 50): Promise<ConversationSummary[]> {
  let names: string[]
  try {
    names = await readdir(dir)
  } catch {
    return []
  }
  const ids = names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -5))
  const dated = await Promise.all(
    ids
      .filter((id) => ConversationIdSchema.safeParse(id).success)
      .map(async (id) => ({ id, mtime: (await stat(join(dir, `${id}.json`)).catch(() => undefined))?.mtime })),
  )
  const newest = dated
    .filter((d): d is { id: string; mtime: Date } => d.mtime !== undefined)
    .sort((a, b) => b.mtime.getTime() - a.mtime.getTime())
    .slice(0, limit)
  const summaries = await Promise.all(newest.map((d) => summaryOf(dir, d.id, d.mtime)))
  return summaries.filter((s): s is ConversationSummary => s !== undefined)
}

async function summaryOf(dir: string, id: string, mtime: Date): Promise<ConversationSummary | undefined> {
  try {
    const conversation = await loadConversation(dir, id)
    const first = conversation.turns[0] as Conversation['turns'][number]
    const last = conversation.turns.at(-1) ?? first
    return {
      id,
      createdAt: conversation.createdAt,
      updatedAt: mtime.toISOString(),
      turns: conversation.turns.length,
      question: first.question,
      lastQuestion: last.question,
    }
  } catch {
    return undefined
  }
}
