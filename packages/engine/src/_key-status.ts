import type { ProviderErrorKind } from '@search-layer/core'
import { type KeySlot, iso } from './_key-slot.js'
import { type LatencySummary, summarizeLatency } from './_latency.js'

// What status pages show of each key, and the warning a monthly quota near its end earns.

/** One key of a provider's pool, as status pages show it: named by label and hash, never by the key. */
export interface KeyStatus {
  /** `key #2 (…a1b2)`, or `no key` for a provider that needs none. */
  label: string
  /** The key's hash (`apiKeyId`), under which its state is stored. */
  id: string
  resting: boolean
  /** ISO time the key is tried again, while it rests. */
  restingUntil?: string
  lastError?: { kind: ProviderErrorKind; message: string }
  /** The pace calls are held to now; `learned` when it comes from the vendor's headers. Null: rate limiting is off. */
  pace: { perSecond: number; burst: number; learned: boolean } | null
  /** What the vendor said last (ISO times). */
  limits?: {
    remaining?: number
    resetsAt?: string
    quotaLimit?: number
    quotaRemaining?: number
    quotaResetsAt?: string
    learnedAt: string
  }
  /**
   * How long the key's calls took lately: p50/p90/p95 of the last samples (ms), how many, and how many were cut
   * off while running (`atLeast` marks a quantile they leave only a lower bound for).
   */
  latency?: LatencySummary
  /** A monthly quota near or at its end. */
  warning?: string
}

// A monthly quota with this share or less left is worth a warning.
const QUOTA_WARN_SHARE = 0.1

const count = (n: number) => n.toLocaleString('en-US')

/** A sentence on the key's monthly quota when it is near or at its end. */
export function quotaWarning(slot: KeySlot): string | undefined {
  const limits = slot.limits
  if (limits?.quotaLimit === undefined || limits.quotaRemaining === undefined || limits.quotaLimit <= 0)
    return undefined
  if (limits.quotaRemaining > limits.quotaLimit * QUOTA_WARN_SHARE) return undefined
  const used = limits.quotaLimit - limits.quotaRemaining
  const resets = limits.quotaResetAt !== undefined ? `; it resets at ${iso(limits.quotaResetAt)}` : ''
  return limits.quotaRemaining === 0
    ? `monthly quota of ${count(limits.quotaLimit)} requests used up${resets}`
    : `${count(used)} of ${count(limits.quotaLimit)} monthly requests used, ${count(limits.quotaRemaining)} left${resets}`
}

export function describeKey(slot: KeySlot): KeyStatus {
  const circuit = slot.circuit.state()
  const limits = slot.limits
  const pace = slot.limiter?.current()
  const warning = quotaWarning(slot)
  const latency = summarizeLatency(slot.latency?.samples ?? [])
  return {
    label: slot.label,
    id: slot.id,
    resting: circuit.open,
    ...(circuit.open && circuit.until !== undefined && { restingUntil: iso(circuit.until) }),
    ...(circuit.lastError && { lastError: circuit.lastError }),
    pace: pace ? { perSecond: pace.perSecond, burst: pace.burst, learned: limits?.perSecond !== undefined } : null,
    ...(limits && {
      limits: {
        ...(limits.remaining !== undefined && { remaining: limits.remaining }),
        ...(limits.resetAt !== undefined && { resetsAt: iso(limits.resetAt) }),
        ...(limits.quotaLimit !== undefined && { quotaLimit: limits.quotaLimit }),
        ...(limits.quotaRemaining !== undefined && { quotaRemaining: limits.quotaRemaining }),
        ...(limits.quotaResetAt !== undefined && { quotaResetsAt: iso(limits.quotaResetAt) }),
        learnedAt: iso(limits.learnedAt),
      },
    }),
    ...(latency && { latency }),
    ...(warning && { warning }),
  }
}
