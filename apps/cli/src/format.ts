import type { Env } from '@search-layer/core'
import type { OperatorReport, SearchResponse } from '@search-layer/engine'

/** One line on how the search went: intent, mode, queries, each provider's outcome, time. */
function statusLine(response: SearchResponse): string {
  const status = Object.entries(response.providers)
    .filter(([, p]) => p.status !== 'skipped' || !p.reason?.startsWith('not used'))
    .map(([name, p]) =>
      p.status === 'ok'
        ? `${name} ✓ ${p.results}`
        : p.status === 'error'
          ? `${name} ✗ ${p.error?.kind}`
          : p.status === 'late'
            ? `${name} late (${p.ms} ms)`
            : `${name} – ${p.reason}`,
    )
  const queries = `${response.queries.length} quer${response.queries.length === 1 ? 'y' : 'ies'}`
  return `_${response.intent ? `${response.intent} · ` : ''}${response.mode} · ${queries} · ${status.join(' · ')} · ${response.timing.total_ms} ms${response.cached ? ' (cached)' : ''}_`
}

/** The `--explain` line on the intent: which, and who decided it (the caller, the rules, or the intent model). */
function intentLine(response: SearchResponse): string {
  if (!response.intent) return "**Intent** none: providers' fused order, no scores"
  if (response.intent_source === 'explicit') return `**Intent** ${response.intent}, set by the caller`
  const confidence = response.confidence !== undefined ? ` (confidence ${response.confidence.toFixed(2)})` : ''
  const learned = (response.signals ?? []).filter((s) => s.lang === 'model').map((s) => s.term)
  const who =
    response.intent_by === 'llm'
      ? 'the intent model (the rules were unsure)'
      : learned.length > 0
        ? `the rules with the learned classifier, which weighed ${learned.join(', ')}`
        : 'the rules'
  return `**Intent** ${response.intent}, classified by ${who}${confidence}`
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).hostname
  } catch {
    return url
  }
}

/**
 * The `--explain` lines on what ranking did beyond scores: copies of one page folded into one result (near-duplicates)
 * and results moved down so no site fills the top places (site diversity). Empty when it did neither.
 */
function rankingLines(response: SearchResponse): string {
  const folded = response.results.flatMap((r, i) =>
    r.duplicates?.length
      ? [`#${i + 1} ${hostOf(r.url)} also at ${r.duplicates.map((d) => hostOf(d.url)).join(', ')}`]
      : [],
  )
  const moved = response.results.flatMap((r, i) =>
    r.explain?.demoted_from !== undefined ? [`#${i + 1} ${hostOf(r.url)} (was #${r.explain.demoted_from})`] : [],
  )
  if (folded.length === 0 && moved.length === 0) return ''
  return [
    '**Ranking**',
    ...(folded.length > 0 ? [`- near-duplicates folded: ${folded.join(' · ')}`] : []),
    ...(moved.length > 0 ? [`- moved down for site diversity: ${moved.join(' · ')}`] : []),
  ].join('\n')
}

/**
 * The `--explain` lines on query operators: what was parsed, who applied each filter natively, who had it stripped,
 * and what enforcement on the merged results dropped or could not check.
 */
function operatorLines(report: OperatorReport): string {
  const perProvider = (table: Record<string, string[]>) =>
    Object.entries(table)
      .filter(([, kinds]) => kinds.length > 0)
      .map(([name, kinds]) => `${name} (${kinds.join(', ')})`)
      .join(' · ') || 'none'
  const reasons = Object.entries(report.dropped_by)
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ')
  const parsed = report.parsed.map((o) => `\`${o.raw}\``).join(' ')
  return [
    `**Operators** ${parsed || '(none in the query)'} → filters: ${report.filters.join(', ')}`,
    `- native: ${perProvider(report.native)}`,
    `- stripped: ${perProvider(report.stripped)}`,
    `- enforced: ${report.dropped} result${report.dropped === 1 ? '' : 's'} dropped${reasons ? ` (${reasons})` : ''}` +
      (report.date_unverified ? ` · ${report.date_unverified} kept without a date` : '') +
      (report.unchecked?.length ? ` · not checked: ${report.unchecked.join(', ')}` : ''),
  ].join('\n')
}

/**
 * Markdown for people: the synthesis (answer first, grouped by topic, conflicts and confidence stated),
 * written by the configured LLM when `SEARCH_LAYER_LLM_URL` is set (falling back to the rules on any failure),
 * then the status line.
 */
export async function formatSearchMarkdown(
  response: SearchResponse,
  env: Env,
  options: { maxChars?: number; explain?: boolean } = {},
): Promise<string> {
  // Loaded here, not at start-up: JSON output (agents, pipes) never needs it.
  const { llmConfigFromEnv, synthesize, synthesizeWithLlm, toMarkdown } = await import('@search-layer/synthesis')
  const llm = llmConfigFromEnv(env)
  const { explain, ...synthesisOptions } = options
  const synthesis = llm
    ? await synthesizeWithLlm(response, { llm, ...synthesisOptions })
    : synthesize(response, synthesisOptions)
  const note =
    synthesis.llm && !synthesis.llm.used && llm
      ? `\n_LLM synthesis unavailable (${synthesis.llm.fallbackReason}); showing the rule-based summary._\n`
      : ''
  const ranking = explain ? rankingLines(response) : ''
  const intent = explain ? `\n${intentLine(response)}\n${ranking ? `\n${ranking}\n` : ''}` : ''
  const operators = explain && response.operators ? `\n${operatorLines(response.operators)}\n` : ''
  const evidence = await evidenceBlock(response)
  return `${toMarkdown(synthesis).trimEnd()}\n${note}${evidence}\n${statusLine(response)}\n${intent}${operators}${keylessNote(response)}`
}

/** The Evidence block of a search that read its top results (quoted passages, pages not read); loaded only then. */
async function evidenceBlock(response: SearchResponse): Promise<string> {
  if (!response.reads) return ''
  const { evidenceToMarkdown } = await import('@search-layer/evidence')
  const block = evidenceToMarkdown({ reads: response.reads, passages: response.passages ?? [] })
  return block ? `\n${block}` : ''
}

/** Only keyless sources answered: say so, and which variables to set for more (the engine's own sentence). */
function keylessNote(response: SearchResponse): string {
  return response.keyless_only ? `\n_Note: ${response.keyless_only.message}._\n` : ''
}
