import { readFileSync } from 'node:fs'
import { type ProviderError, isProviderError } from '@search-layer/core'
import type { Fault } from './types.js'

/** One vendor answer captured by another project, with the status and headers its `.meta.json` sidecar kept. */
export interface RecordedResponse {
  body: string
  json: Record<string, unknown>
  status: number
  headers: Record<string, string> | null
}

/**
 * Reads `<name>.json` and its `<name>.meta.json` sidecar from a fixtures folder (a `file:` URL, e.g.
 * `new URL('../test/fixtures/recorded/', import.meta.url)`). A sidecar without a status means the capture was a 200.
 */
export function readRecorded(dir: URL, name: string): RecordedResponse {
  const body = readFileSync(new URL(`${name}.json`, dir), 'utf8')
  const meta = JSON.parse(readFileSync(new URL(`${name}.meta.json`, dir), 'utf8')) as {
    status: number | null
    headers: Record<string, string> | null
  }
  return { body, json: JSON.parse(body) as Record<string, unknown>, status: meta.status ?? 200, headers: meta.headers }
}

/** An HTML tag or an HTML entity: what no provider's clean text may still hold. */
export const TAG_OR_ENTITY = /<\/?[a-z][^<>]*>|&(?:#x?[0-9a-f]+|[a-z]{2,8});/i

/**
 * The `ProviderError` a call rejects with. Throws when the call resolves or rejects with anything else, so a test
 * awaiting it fails on a provider that swallowed the failure or threw an untyped error.
 */
export async function providerFailure(call: Promise<unknown>): Promise<ProviderError> {
  const outcome = await call.then(
    () => ({ resolved: true as const }),
    (error: unknown) => ({ resolved: false as const, error }),
  )
  if (outcome.resolved) throw new Error('expected the call to fail with a ProviderError, but it resolved')
  if (!isProviderError(outcome.error)) {
    throw new Error(`expected a ProviderError, got ${String(outcome.error)}`, { cause: outcome.error })
  }
  return outcome.error
}

/**
 * A provider's time limit in a fault-injection case: short when the emulator hangs, so the case ends quickly, and
 * long otherwise, because reading an endless or oversized body to its size cap on a loaded host can outlast a short
 * limit and turn the expected `bad_response` into `timeout`.
 */
export function faultTimeLimit(fault: Fault | null): number {
  return fault?.hang ? 300 : 10_000
}
