import { z } from '@hono/zod-openapi'
import { PROVIDER_ERROR_KINDS } from '@search-layer/core'
import type { KeyStatus } from '@search-layer/engine'

const LatencyQuantileSchema = z.object({
  ms: z.number(),
  atLeast: z
    .literal(true)
    .optional()
    .openapi({ description: 'Only a lower bound: the slower calls were all cut off before they answered.' }),
})

/** A provider's or a key's learned latency (the engine's `LatencySummary`). */
export const LatencySchema = z
  .object({
    samples: z.number().int().openapi({ description: 'Calls timed (the last 64 at most), cut-off ones included.' }),
    late: z.number().int().openapi({ description: 'Of them, calls cut off while still running (a lower bound).' }),
    p50: LatencyQuantileSchema,
    p90: LatencyQuantileSchema,
    p95: LatencyQuantileSchema,
  })
  .openapi({ description: 'p50/p90/p95 of the last calls (ms), from the request to its answer.' })

/** One provider key in `/readyz`: its label and hash, rest, pace and what the vendor said; never the key. */
export const ReadyKeySchema = z.object({
  label: z.string().openapi({ example: 'key #2 (…a1b2)' }),
  id: z.string().openapi({ description: 'The first 12 hex digits of the key’s SHA-256.' }),
  resting: z.boolean(),
  restingUntil: z.string().optional(),
  lastError: z.object({ kind: z.enum(PROVIDER_ERROR_KINDS as [string, ...string[]]), message: z.string() }).optional(),
  pace: z.object({ perSecond: z.number(), burst: z.number(), learned: z.boolean() }).nullable().openapi({
    description: 'Calls per second this key is held to; learned from the vendor’s headers or the default.',
  }),
  limits: z
    .object({
      remaining: z.number().optional(),
      resetsAt: z.string().optional(),
      quotaLimit: z.number().optional(),
      quotaRemaining: z.number().optional(),
      quotaResetsAt: z.string().optional(),
      learnedAt: z.string(),
    })
    .optional(),
  latency: LatencySchema.optional().openapi({
    description: 'How long this key’s calls took lately; absent before any was timed.',
  }),
  warning: z.string().optional(),
})

/** A key's status as `/readyz` shows it (the engine's `KeyStatus`, field for field). */
export function readyKey(key: KeyStatus): z.infer<typeof ReadyKeySchema> {
  return {
    label: key.label,
    id: key.id,
    resting: key.resting,
    ...(key.restingUntil !== undefined && { restingUntil: key.restingUntil }),
    ...(key.lastError && { lastError: key.lastError }),
    pace: key.pace,
    ...(key.limits && { limits: key.limits }),
    ...(key.latency && { latency: key.latency }),
    ...(key.warning !== undefined && { warning: key.warning }),
  }
}
