import type { Cost } from '@search-layer/core'

/** xAI bills server-side web search at $5 per 1000 calls. */
export const GROK_WEB_SEARCH_USD_PER_CALL = 0.005

// USD per million tokens; unknown models are estimated at grok-4.3 prices.
const PRICES: readonly [RegExp, number, number][] = [
  [/^grok-4\.3/, 1.25, 2.5],
  [/^grok-4(?:-1)?-fast/, 0.2, 0.5],
]
const DEFAULT_PRICE: [number, number] = [1.25, 2.5]

/**
 * The call's cost: xAI's own `cost_in_usd_ticks` when sent (`reported`), else tokens and search calls at list price
 * (search calls from `server_side_tool_usage_details`, else `webSearchCallsSeen`).
 */
export function estimateGrokCost(
  model: string,
  usage:
    | {
        input_tokens?: number | null
        output_tokens?: number | null
        cost_in_usd_ticks?: number | null
        server_side_tool_usage_details?: { web_search_calls?: number | null } | null
      }
    | undefined,
  /** Web searches seen in the answer, counted when `usage` has no `server_side_tool_usage_details`. */
  webSearchCallsSeen = 0,
): Cost | undefined {
  if (!usage) return undefined
  const ticks = usage.cost_in_usd_ticks
  if (typeof ticks === 'number' && Number.isFinite(ticks) && ticks >= 0) return { usd: ticks / 1e10, basis: 'reported' }
  const [inPrice, outPrice] =
    (PRICES.find(([re]) => re.test(model))?.slice(1) as [number, number] | undefined) ?? DEFAULT_PRICE
  const n = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0)
  const usd =
    (n(usage.input_tokens) * inPrice + n(usage.output_tokens) * outPrice) / 1e6 +
    n(usage.server_side_tool_usage_details?.web_search_calls ?? webSearchCallsSeen) * GROK_WEB_SEARCH_USD_PER_CALL
  return { usd: Math.round(usd * 1e8) / 1e8, basis: 'estimated' }
}
