import type { Env } from '@search-layer/core'
import type { SearchResponse } from '@search-layer/engine'

/** One line on how the search went: intent, mode, queries, each provider's outcome, time. */
export function statusLine(response: SearchResponse): string {
  const status = Object.entries(response.providers)
    .filter(([, p]) => p.status !== 'skipped' || !p.reason?.startsWith('not used'))
    .map(([name, p]) =>
      p.status === 'ok'
        ? `${name} ✓ ${p.results}`
        : p.status === 'error'
          ? `${name} ✗ ${p.error?.kind}`
          : `${name} – ${p.reason}`,
    )
  const queries = `${response.queries.length} quer${response.queries.length === 1 ? 'y' : 'ies'}`
  return `_${response.intent ? `${response.intent} · ` : ''}${response.mode} · ${queries} · ${status.join(' · ')} · ${response.timing.total_ms} ms${response.cached ? ' (cached)' : ''}_`
}

/**
 * Markdown for people: the synthesis (answer first, grouped by topic, conflicts and confidence stated),
 * written by the configured LLM when `SEARCH_LAYER_LLM_URL` is set (falling back to the rules on any failure),
 * then the status line.
 */
export async function formatSearchMarkdown(
  response: SearchResponse,
  env: Env,
  options: { maxChars?: number } = {},
): Promise<string> {
  // Loaded here, not at start-up: JSON output (agents, pipes) never needs it.
  const { llmConfigFromEnv, synthesize, synthesizeWithLlm, toMarkdown } = await import('@search-layer/synthesis')
  const llm = llmConfigFromEnv(env)
  const synthesis = llm ? await synthesizeWithLlm(response, { llm, ...options }) : synthesize(response, options)
  const note =
    synthesis.llm && !synthesis.llm.used && llm
      ? `\n_LLM synthesis unavailable (${synthesis.llm.fallbackReason}); showing the rule-based summary._\n`
      : ''
  return `${toMarkdown(synthesis).trimEnd()}\n${note}\n${statusLine(response)}\n`
}
