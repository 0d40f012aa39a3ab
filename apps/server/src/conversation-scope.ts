import { createHash } from 'node:crypto'
import { join } from 'node:path'

/**
 * Where one caller's conversations live. With auth on, each bearer key has its own directory, named by a hash of
 * the key (never the key, nor its configured name: a name can pass to a new key, and the old key's conversations
 * must not pass with it). With auth off the server cannot tell callers apart — an address is not an identity
 * (proxies, NAT, the CLI and the browser of one person) — so there is one scope: the conversations directory itself,
 * the one the CLI uses too. Conversation ids carry 64 random bits either way.
 */
export type ConversationScope = (authorization: string | undefined) => string

/** A domain prefix: the directory name is a hash of the key for this use only, unlike a plain hash of the key. */
const PURPOSE = 'search-layer conversations\u0000'

export function conversationScope({ dir, authEnabled }: { dir: string; authEnabled: boolean }): ConversationScope {
  if (!authEnabled) return () => dir
  return (authorization) => {
    // Requests reach the routes only with a valid key once auth is on; the header is the key the caller presented.
    const key = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? ''
    const digest = createHash('sha256').update(PURPOSE).update(key).digest('hex').slice(0, 32)
    return join(dir, 'callers', digest)
  }
}
