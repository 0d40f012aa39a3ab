/** Round to 4 decimals and clamp to [0,1]; NaN becomes 0 so a bad input can never poison a sort. */
export function round4(value: number): number {
  if (!Number.isFinite(value)) return value === Number.POSITIVE_INFINITY ? 1 : 0
  return Math.round(Math.min(1, Math.max(0, value)) * 10_000) / 10_000
}

/** Milliseconds in a day. */
export const DAY_MS = 86_400_000
