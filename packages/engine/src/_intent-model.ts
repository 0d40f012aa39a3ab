import { ConfigError, type Env } from '@search-layer/core'
import { envSwitch } from '@search-layer/core/config'
import { type LlmEndpoint, llmEndpointFromEnv } from '@search-layer/core/http'
import { classifyIntentWithLlm } from '@search-layer/intent'
import { type Strategy, planStrategy } from './_strategy.js'
import type { ParsedSearchRequest } from './request.js'

/** Opts in to asking the model when the rules are unsure of a query's intent: `on` or `off` (default). */
const INTENT_MODEL_ENV = 'SEARCH_LAYER_INTENT_LLM'
// The model is asked before any engine, so it gets a small share of the deadline: a slow model costs a search at
// most this, then the rules decide.
const MODEL_SHARE_OF_DEADLINE = 0.2
const MODEL_MAX_MS = 1500

/** `SearchLayerOptions.intentModel`: an endpoint, `true` (the `SEARCH_LAYER_LLM_*` one), `false`, or unset (the env switch). */
export type IntentModelSetting = LlmEndpoint | boolean | undefined

/** The model that classifies unsure queries for this search, or why none does; reads the environment at call time. */
export function intentModelFor(setting: IntentModelSetting, env: Env): { endpoint?: LlmEndpoint; problem?: string } {
  if (setting === false) return {}
  if (typeof setting === 'object') return { endpoint: setting }
  if (setting === undefined && !switchedOn(env)) return {}
  try {
    const endpoint = llmEndpointFromEnv(env)
    return endpoint
      ? { endpoint }
      : { problem: `${INTENT_MODEL_ENV} is on but SEARCH_LAYER_LLM_URL is not set: the rules classified the query` }
  } catch (error) {
    if (error instanceof ConfigError) return { problem: `${error.message}: the rules classified the query` }
    throw error
  }
}

function switchedOn(env: Env): boolean {
  return envSwitch(env, INTENT_MODEL_ENV) ?? false
}

/** How long the model may take for a search with this deadline. */
function intentModelBudgetMs(deadlineMs: number): number {
  return Math.max(1, Math.min(MODEL_MAX_MS, Math.floor(deadlineMs * MODEL_SHARE_OF_DEADLINE)))
}

/**
 * Asks the model when the rules classified the query and were unsure; re-plans with its intent when it answers.
 * Never rejects: a slow, failing or unreadable model leaves the rules' plan, with a warning saying why.
 */
export async function refineIntent(
  strategy: Strategy,
  req: ParsedSearchRequest,
  now: Date,
  model: { endpoint?: LlmEndpoint; problem?: string },
): Promise<{ strategy: Strategy; warning?: string }> {
  if (strategy.intentSetting !== 'auto' || !strategy.classification?.uncertain) return { strategy }
  if (!model.endpoint) return model.problem ? { strategy, warning: model.problem } : { strategy }
  const timeoutMs = intentModelBudgetMs(req.deadlineMs)
  const verdict = await classifyIntentWithLlm(strategy.baseQuery, { llm: model.endpoint, timeoutMs })
  if (verdict.source === 'llm') return { strategy: planStrategy(req, now, verdict) }
  return {
    strategy,
    warning: `the intent model did not answer usably (${verdict.llmError ?? 'no answer'}) within ${timeoutMs} ms: the rules classified the query`,
  }
}
