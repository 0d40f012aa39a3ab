import { createRoute, z } from '@hono/zod-openapi'
import { keyVariableHint } from '@search-layer/core'
import type { SearchLayer } from '@search-layer/engine'
import { LatencySchema, ReadyKeySchema, readyKey } from '../ready-keys.js'
import type { GuardedRedis } from '../guarded-redis.js'
import { createRouter, json } from './responses.js'

const ReadySchema = z.object({
  status: z.enum(['ready', 'degraded', 'not_ready']),
  providers: z.array(
    z.object({
      name: z.string(),
      configured: z.boolean(),
      resting: z.boolean(),
      keys: z
        .array(ReadyKeySchema)
        .optional()
        .openapi({ description: 'Each configured key, named by label and hash (never the key).' }),
      latency: LatencySchema.optional().openapi({
        description: 'Over all its keys: what a search orders its calls and picks stand-ins by.',
      }),
      typicalLatencyMs: z.number().openapi({
        description: 'Its definition’s usual call time (ms): what a search goes by until three of its calls are timed.',
        example: 1100,
      }),
    }),
  ),
  redis: z.object({ configured: z.boolean(), up: z.boolean(), error: z.string().optional() }),
  warnings: z.array(z.string()),
})

/** What `/readyz` reports: providers configured and resting, Redis reachable, and what is wrong in words. */
async function readiness(layer: SearchLayer, shared: GuardedRedis): Promise<z.infer<typeof ReadySchema>> {
  const statuses = await layer.status()
  const warnings: string[] = []
  const redis = shared.configured ? await shared.ping() : { ok: false, ms: 0 }
  if (shared.configured && !redis.ok)
    warnings.push(
      `redis unreachable (${redis.error ?? 'unknown'}): cache, rate limits, budgets and history are per-instance until it is back`,
    )
  const configured = statuses.filter((s) => s.configured)
  if (configured.length === 0)
    warnings.push(
      `no search provider is configured: set ${layer.providers
        .filter((d) => !d.keyless)
        .map((d) => keyVariableHint(d))
        .join(' or ')}`,
    )
  for (const s of statuses)
    if (s.configured && s.circuit.open) warnings.push(`${s.name} is resting after repeated failures`)
  for (const s of configured)
    for (const key of s.keys) if (key.warning) warnings.push(`${s.name} ${key.label}: ${key.warning}`)
  const status = configured.length === 0 ? 'not_ready' : warnings.length ? 'degraded' : 'ready'
  const typicalOf = new Map(layer.providers.map((d) => [d.id, d.typicalLatencyMs]))
  return {
    status,
    providers: statuses.map((s) => ({
      name: s.name,
      configured: s.configured,
      resting: s.circuit.open,
      ...(s.configured && { keys: s.keys.map(readyKey) }),
      ...(s.latency && { latency: s.latency }),
      typicalLatencyMs: typicalOf.get(s.name)!,
    })),
    redis: {
      configured: shared.configured,
      up: shared.configured && redis.ok,
      ...(shared.configured && !redis.ok && { error: redis.error ?? 'unreachable' }),
    },
    warnings,
  }
}

/** `GET /healthz` (the process is up) and `GET /readyz` (it can serve searches); both without auth. */
export function healthRoutes({ layer, shared }: { layer: SearchLayer; shared: GuardedRedis }) {
  const router = createRouter()
  router.openapi(
    createRoute({
      method: 'get',
      path: '/healthz',
      operationId: 'healthz',
      // Public: load balancers and orchestrators probe it without a key (middleware/auth.ts PUBLIC_PATHS).
      security: [],
      summary: 'The process is up.',
      responses: { 200: json(z.object({ status: z.literal('ok') }), 'Up') },
    }),
    (c) => c.json({ status: 'ok' as const }, 200),
  )

  router.openapi(
    createRoute({
      method: 'get',
      path: '/readyz',
      operationId: 'readyz',
      // Public: load balancers and orchestrators probe it without a key (middleware/auth.ts PUBLIC_PATHS).
      security: [],
      summary:
        'Dependencies reachable and providers configured. Redis down is "degraded" (200): requests are served in-process.',
      responses: { 200: json(ReadySchema, 'Ready or degraded'), 503: json(ReadySchema, 'No provider configured') },
    }),
    async (c) => {
      const body = await readiness(layer, shared)
      return body.status === 'not_ready' ? c.json(body, 503) : c.json(body, 200)
    },
  )
  return router
}
