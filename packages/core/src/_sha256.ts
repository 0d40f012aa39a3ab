import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'

/**
 * The SHA-256 of `text` (UTF-8) in hex, as `createHash('sha256').update(text).digest('hex')` gives it, without
 * node:crypto: loading that module costs a fresh process ~5 ms of CPU on Node 20 and ~20 ms on Node 24 (OpenSSL's
 * set-up, measured), and a search hashes its keys' ids before its first call. @noble/hashes is pure JavaScript,
 * audited, and has no dependencies; hashing a key or a request this way takes microseconds.
 */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)))
}
