import type { KeyState } from '@search-layer/engine'

// Learned limits outlive any vendor window worth remembering (a month's quota); nothing is kept longer.
const KEY_STATE_TTL_MS = 40 * 24 * 60 * 60_000

/**
 * How long Redis keeps a key's state: learned limits and latency for `KEY_STATE_TTL_MS`; a rest alone as long as it lasts (the
 * engine already bounds it to the longest rest), so an entry never outlives what it says. Never beyond
 * `KEY_STATE_TTL_MS` and never under a second, whatever the state holds.
 */
export function keyStateTtlMs(state: KeyState, nowMs: number): number {
  const restMs = (state.restUntil ?? nowMs) - nowMs
  const wanted = state.limits || state.latency ? KEY_STATE_TTL_MS : restMs
  return Number.isFinite(wanted) ? Math.round(Math.min(KEY_STATE_TTL_MS, Math.max(1000, wanted))) : KEY_STATE_TTL_MS
}
