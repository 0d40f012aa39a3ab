import { createHash, timingSafeEqual } from 'node:crypto'

/** One accepted API key; `name` is the identity logged and used for rate limits and history. */
export interface ApiKey {
  name: string
  key: string
}

const sha256 = (text: string) => createHash('sha256').update(text).digest()

/** Checks bearer keys in constant time and names the caller. */
export interface Authenticator {
  readonly enabled: boolean
  /** The identity of a valid key (its name), or undefined. */
  identify(authorization: string | undefined): string | undefined
}

/** Keeps only hashes of the keys; comparing equal-length digests makes timing independent of the key. */
export function createAuthenticator(keys: readonly ApiKey[]): Authenticator {
  const hashed = keys.map((k) => ({ name: k.name, hash: sha256(k.key) }))
  return {
    enabled: hashed.length > 0,
    identify(authorization) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')
      if (!match) return undefined
      const presented = sha256(match[1]!)
      let found: string | undefined
      // Compare against every key, without an early exit, so timing does not reveal which one matched.
      for (const k of hashed) if (timingSafeEqual(presented, k.hash) && found === undefined) found = k.name
      return found
    },
  }
}

/** A short stable identity for a key without a name: never the key itself. */
export function keyIdentity(key: string): string {
  return `key-${sha256(key).toString('hex').slice(0, 8)}`
}
