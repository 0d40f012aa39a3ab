import { createHash } from 'node:crypto'

/** Stable hex digest of a string; the emulator's only source of "randomness". */
export function digest(input: string, length = 32): string {
  return createHash('sha256').update(input).digest('hex').slice(0, length)
}

/** Stable unsigned 32-bit number for a string. */
export function hashInt(input: string): number {
  return Number.parseInt(digest(input, 8), 16)
}

/** A deterministic v4-shaped UUID for a seed, so identical requests get identical bodies. */
export function uuidFor(seed: string): string {
  const h = digest(seed, 32)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** Reads a string field from an unknown JSON body. */
export function str(body: unknown, key: string): string | undefined {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const v = (body as Record<string, unknown>)[key]
    return typeof v === 'string' ? v : undefined
  }
  return undefined
}

/** Reads any field from an unknown JSON body. */
export function field(body: unknown, key: string): unknown {
  if (body && typeof body === 'object' && !Array.isArray(body)) return (body as Record<string, unknown>)[key]
  return undefined
}

/** Reads a string-array field (ignores non-string members). */
export function strList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined
  return value.filter((v): v is string => typeof v === 'string')
}

/** Extracts the bearer token of an Authorization header. */
export function bearer(headers: Record<string, string>): string | undefined {
  const auth = headers.authorization
  if (!auth) return undefined
  const m = /^Bearer\s+(.+)$/i.exec(auth.trim())
  return m?.[1]?.trim()
}

/** Masks a key the way xAI/OpenAI echo it in auth errors: first and last two characters only. */
export function maskKey(key: string): string {
  if (key.length <= 4) return '***'
  return `${key.slice(0, 2)}***${key.slice(-2)}`
}

export const DAY_MS = 86_400_000
