import type { KeySlot, PoolScope } from './_key-slot.js'
import { applyPace } from './_key-limits.js'
import type { KeyState, KeyStateStore } from './key-state-store.js'
import { checkedKeyState } from './_wait-checks.js'

// A key's learned limits and rest, read from the `KeyStateStore` under the key's hash and written back when they
// change, so another run or another server instance starts from them.

/** Takes what the store knows about the key, where it is newer than what this process knows. */
export async function loadKeyState(pool: PoolScope, store: KeyStateStore, slot: KeySlot): Promise<void> {
  let state: KeyState | undefined
  try {
    state = await store.get(pool.name, slot.id)
  } catch {
    return // A store that cannot be read leaves the key as this process knows it.
  }
  if (!state) return
  const checked = checkedKeyState(state, pool.now(), pool.maxRestMs())
  state = checked.state
  if (state.limits && state.limits.learnedAt > (slot.limits?.learnedAt ?? -1)) {
    slot.limits = state.limits
    applyPace(pool, slot)
  }
  // Another instance's newer samples replace this process's: one window per key, never two merged out of order.
  if (state.latency && state.latency.updatedAt > (slot.latency?.updatedAt ?? -1)) slot.latency = state.latency
  if (state.restUntil !== undefined)
    slot.circuit.restUntil(state.restUntil, state.lastError ?? { kind: 'upstream', message: 'resting' })
  // Written back bounded at once: a rest read from a tampered file must not start its hour over at every read.
  if (checked.changed) {
    slot.dirty = true
    await saveKeyState(pool, store, slot)
  }
}

/** Writes the key's limits, rest and latency to the store when something worth storing changed. */
export async function saveKeyState(pool: PoolScope, store: KeyStateStore, slot: KeySlot): Promise<void> {
  if (!slot.dirty) return
  slot.dirty = false
  const circuit = slot.circuit.state()
  const state: KeyState = {
    ...(slot.limits && { limits: slot.limits }),
    ...(circuit.open && circuit.until !== undefined && { restUntil: circuit.until }),
    ...(circuit.lastError && { lastError: circuit.lastError }),
    ...(slot.latency && { latency: slot.latency }),
  }
  try {
    await store.set(pool.name, slot.id, state)
  } catch {
    // Not remembering a limit costs a slower next run, not this one.
  }
}
