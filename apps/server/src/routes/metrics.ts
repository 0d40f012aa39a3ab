import { createRoute, z } from '@hono/zod-openapi'
import { type SearchLayer, monthOf } from '@search-layer/engine'
import { renderGauge } from '../prometheus-metrics.js'
import type { ServerState } from '../server-state.js'
import { type Security, commonErrors, createRouter } from './responses.js'

/** The Prometheus exposition of the server's counters and the engine's budgets, providers and queue. */
async function renderMetrics(
  layer: SearchLayer,
  { metrics, redis: shared, searchSlots }: ServerState,
): Promise<string> {
  const statuses = await layer.status()
  const month = monthOf(new Date())
  const budgets = statuses.flatMap((s) => (s.budget ? [s] : []))
  return [
    metrics.requests.render(),
    metrics.latency.render(),
    metrics.providerCalls.render(),
    metrics.providerLatency.render(),
    metrics.cache.render(),
    metrics.rateLimited.render(),
    renderGauge(
      'search_layer_budget_used_calls',
      'Provider calls counted this month against the budget.',
      budgets.map((s) => ({ labels: { provider: s.name, month: s.budget!.month }, value: s.budget!.used })),
    ),
    renderGauge(
      'search_layer_budget_limit_calls',
      'Monthly call budget per provider.',
      budgets.map((s) => ({ labels: { provider: s.name, month }, value: s.budget!.limit })),
    ),
    renderGauge(
      'search_layer_provider_configured',
      'Provider has a key (1) or not (0).',
      layer.providers.map(({ id }) => ({
        labels: { provider: id },
        value: statuses.find((s) => s.name === id)?.configured ? 1 : 0,
      })),
    ),
    renderGauge('search_layer_redis_up', 'Redis reachable (1), down or not configured (0).', [
      { labels: {}, value: shared.up() ? 1 : 0 },
    ]),
    renderGauge(
      'search_layer_searches_running',
      'Cache-miss searches running now (at most SEARCH_LAYER_MAX_CONCURRENT_SEARCHES).',
      [{ labels: {}, value: searchSlots.stats().running }],
    ),
    renderGauge('search_layer_searches_waiting', 'Cache-miss searches waiting for a slot.', [
      { labels: {}, value: searchSlots.stats().waiting },
    ]),
  ].join('\n\n')
}

/** `GET /metrics` in Prometheus text format. */
export function metricsRoutes({
  layer,
  state,
  security,
}: {
  layer: SearchLayer
  state: ServerState
  security: Security
}) {
  const router = createRouter()
  router.openapi(
    createRoute({
      method: 'get',
      path: '/metrics',
      operationId: 'metrics',
      summary: 'Prometheus text format: requests, latencies, provider calls by outcome, cache hits, budget use.',
      security,
      responses: {
        200: { description: 'Prometheus exposition format 0.0.4', content: { 'text/plain': { schema: z.string() } } },
        ...commonErrors(),
      },
    }),
    async (c) =>
      c.text(`${await renderMetrics(layer, state)}\n`, 200, {
        'content-type': 'text/plain; version=0.0.4; charset=utf-8',
      }),
  )
  return router
}
