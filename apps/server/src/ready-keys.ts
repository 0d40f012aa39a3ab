import { z } from '@hono/zod-openapi'
import { PROVIDER_ERROR_KINDS } from '@search-layer/core'
import type { KeyStatus } from '@search-layer/engine'

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
    ...(key.warning !== undefined && { warning: key.warning }),
  }
}
