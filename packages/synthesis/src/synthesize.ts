import { parseInput } from '@search-layer/core'
import { keepCitations } from './_citations.js'
import { buildLead } from './_lead.js'
import { cluster } from './_cluster.js'
import { detectConflicts } from './_conflicts.js'
import { wording } from './_i18n.js'
import { isChinese } from '@search-layer/core/text'
import { charLength, clip, firstSentence, flatten, hostOf, siteOf, termKeys, terms } from './_text.js'
import { estimateTokens, renderMarkdown, renderText } from './render.js'
import {
  type Confidence,
  type Conflict,
  type Synthesis,
  type SynthesisAnswer,
  type SynthesisGroup,
  type SynthesisInput,
  SynthesisInputSchema,
  type SynthesisOptions,
  type SynthesizedResult,
} from './types.js'

const DAY_MS = 86_400_000
const STALE_DAYS_BY_INTENT: Record<string, number> = { news: 30, status: 180 }
const DEFAULT_STALE_DAYS = 730
const LIST_MAX = 5
const GROUPED_MAX = 15

// Openers that narrate the search instead of answering ("I searched for…", "Based on my search,").
const META_OPENERS = [
  /^(?:i|we)\s+(?:searched|looked|have searched|did a search)[^.:!?\n]*[.:!?]\s*/i,
  /^(?:based on|according to)\s+(?:my|the|these|our)\s+(?:web\s+)?(?:search(?:es)?|results?|search results|findings)[^,:\n]*[,:]\s*/i,
  /^here(?:'s| is| are)\s+(?:what i found|the results|a summary)[^.:\n]*[.:]\s*/i,
  /^(?:我|我们)(?:搜索|查找|检索)了[^。!?\n]*[。!?:]\s*/,
  /^(?:根据|基于)(?:我的|以上|上述)?(?:搜索|检索)(?:结果)?[,,:]\s*/,
]

/** Removes search-narrating openers so the answer starts with the answer. */
export function cleanAnswer(text: string): string {
  let out = text
    .replace(/\r\n?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
  for (let pass = 0; pass < 3; pass++) {
    const before = out
    for (const re of META_OPENERS) out = out.replace(re, '')
    if (out === before) break
  }
  out = out.trim()
  return out.length > 0 ? out.charAt(0).toUpperCase() + out.slice(1) : out
}

function splitSources(source: string | undefined): string[] {
  return (source ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}

function dateMs(value: string | null): number | undefined {
  if (!value) return undefined
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? undefined : ms
}

function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7)
}

function conflictIn(conflicts: readonly Conflict[], members: ReadonlySet<number>): Conflict | undefined {
  return conflicts.find((c) => c.claims.filter((cl) => cl.results.some((n) => members.has(n))).length >= 2)
}

interface Judged {
  confidence: Confidence
  staleMonth?: string
  conflict?: Conflict
}

// Several independent sites, fresh → plain; one site or old → "According to…"; disagreement → "Sources differ".
function judge(
  results: readonly SynthesizedResult[],
  conflicts: readonly Conflict[],
  now: number,
  staleDays: number,
): Judged {
  const conflict = conflictIn(conflicts, new Set(results.map((r) => r.n)))
  if (conflict) return { confidence: 'low', conflict }
  const sites = new Set(results.map((r) => siteOf(r.url)))
  const dates = results.map((r) => dateMs(r.publishedAt)).filter((d): d is number => d !== undefined)
  const newest = dates.length > 0 ? Math.max(...dates) : undefined
  const stale = newest !== undefined && now - newest > staleDays * DAY_MS
  if (stale) return { confidence: 'medium', staleMonth: monthOf(newest!) }
  if (sites.size >= 2 && (newest !== undefined || sites.size >= 3)) return { confidence: 'high' }
  return { confidence: 'medium' }
}

function leadOf(r: SynthesizedResult): string {
  return clip(firstSentence(r.snippet) || r.title, 200)
}

function summarize(results: readonly SynthesizedResult[], judged: Judged, language: 'en' | 'zh'): string {
  const w = wording(language)
  const top = results[0]!
  if (judged.conflict) return w.differ(judged.conflict, () => '')
  if (judged.confidence === 'high') return leadOf(top)
  return w.accordingTo(hostOf(top.url), leadOf(top), judged.staleMonth)
}

function supportingResults(
  answer: string,
  results: readonly SynthesizedResult[],
  queryKeys: ReadonlySet<string>,
): number[] {
  const all = termKeys(answer)
  const specific = new Set([...all].filter((k) => !queryKeys.has(k)))
  const keys = specific.size > 0 ? specific : all
  if (keys.size === 0) return []
  const scored = results
    .map((r) => {
      const rKeys = termKeys(`${r.title} ${r.snippet}`)
      let shared = 0
      for (const k of keys) if (rKeys.has(k)) shared++
      return { n: r.n, shared }
    })
    .filter((s) => s.shared >= Math.min(2, keys.size) && s.shared / keys.size >= 0.15)
  scored.sort((a, b) => b.shared - a.shared || a.n - b.n)
  return scored
    .slice(0, 3)
    .map((s) => s.n)
    .sort((a, b) => a - b)
}

/** Confidence of an answer from the sites of the results it cites. */
export function answerConfidence(
  citations: readonly number[],
  results: readonly SynthesizedResult[],
  conflicts: readonly Conflict[],
): Confidence {
  if (conflictIn(conflicts, new Set(citations))) return 'low'
  const sites = new Set(results.filter((r) => citations.includes(r.n)).map((r) => siteOf(r.url)))
  return sites.size >= 2 ? 'high' : 'medium'
}

/** Builds the full synthesis, before any budget. */
export function buildSynthesis(input: SynthesisInput, options: SynthesisOptions = {}): Synthesis {
  const parsed = parseInput(SynthesisInputSchema, input, 'synthesis input')
  const query = flatten(parsed.query)
  const language = options.language ?? (isChinese(query) ? 'zh' : 'en')
  const now = (options.now ?? new Date()).getTime()
  const staleDays = options.staleAfterDays ?? STALE_DAYS_BY_INTENT[parsed.intent ?? ''] ?? DEFAULT_STALE_DAYS
  const maxSnippet = options.maxSnippetChars ?? 300
  const w = wording(language)

  const results: SynthesizedResult[] = parsed.results.map((r, i) => {
    const out: SynthesizedResult = {
      n: i + 1,
      title: flatten(r.title) || hostOf(r.url),
      url: r.url.trim(),
      snippet: clip(flatten(r.snippet ?? ''), maxSnippet),
      sources: r.sources && r.sources.length > 0 ? [...r.sources] : splitSources(r.source),
      publishedAt: r.published_date ?? r.publishedAt ?? null,
    }
    if (r.score !== undefined) out.score = r.score
    return out
  })
  const total = results.length
  const strategy: Synthesis['strategy'] = total <= LIST_MAX ? 'list' : total <= GROUPED_MAX ? 'grouped' : 'overview'
  const queryKeys = new Set(terms(query).map((t) => t.key))
  const conflicts = detectConflicts(
    results.map((r) => ({ n: r.n, title: r.title, snippet: r.snippet, site: siteOf(r.url) })),
    queryKeys,
    language,
  )

  const clusters =
    strategy === 'list'
      ? [{ members: results.map((_, i) => i), terms: [] as string[], other: false }]
      : cluster(results, query, strategy === 'grouped' ? 4 : 6)
  const groups: SynthesisGroup[] = clusters
    .filter((c) => c.members.length > 0)
    .map((c) => {
      const members = c.members.map((i) => results[i]!)
      const judged = judge(members, conflicts, now, staleDays)
      const label =
        c.terms.length > 0
          ? c.terms.join(', ')
          : c.other && clusters.length > 1 && clusters[0] !== c
            ? w.otherLabel
            : w.resultsLabel
      return {
        label,
        terms: c.terms,
        summary: summarize(members, judged, language),
        confidence: judged.confidence,
        results: members,
      }
    })

  let answer: SynthesisAnswer | null = null
  const answerText = parsed.answer ? cleanAnswer(parsed.answer) : ''
  if (answerText) {
    const citations = supportingResults(answerText, results, queryKeys)
    answer = {
      text: answerText,
      citations,
      source: parsed.answerSource ?? parsed.answer_source ?? 'provider',
      confidence: answerConfidence(citations, results, conflicts),
    }
  }

  const providerCounts = new Map<string, number>()
  for (const r of results) for (const p of r.sources) providerCounts.set(p, (providerCounts.get(p) ?? 0) + 1)
  const providers = [...providerCounts.entries()].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).map(([p]) => p)

  const lead = answer ? null : buildLead(results, parsed.passages ?? [], queryKeys)
  const synthesis: Synthesis = {
    query,
    language,
    answer,
    lead,
    strategy,
    groups,
    conflicts,
    total,
    providers,
    omitted: 0,
  }
  if (strategy === 'overview') {
    const topics = groups.filter((g) => g.terms.length > 0).slice(0, 4)
    synthesis.overview =
      topics.length > 0 ? w.overview(topics.map((t) => ({ label: t.label, count: t.results.length }))) : ''
  }
  return synthesis
}

interface Budget {
  maxChars?: number
  maxTokens?: number
}

function fits(s: Synthesis, budget: Budget): boolean {
  for (const out of [renderMarkdown(s), renderText(s)]) {
    if (budget.maxChars !== undefined && charLength(out) > budget.maxChars) return false
    if (budget.maxTokens !== undefined && estimateTokens(out) > budget.maxTokens) return false
  }
  return true
}

function withSnippetCap(s: Synthesis, cap: number): Synthesis {
  return {
    ...s,
    groups: s.groups.map((g) => ({ ...g, results: g.results.map((r) => ({ ...r, snippet: clip(r.snippet, cap) })) })),
  }
}

function without(s: Synthesis, drop: ReadonlySet<number>): Synthesis {
  const groups = s.groups
    .map((g) => ({ ...g, results: g.results.filter((r) => !drop.has(r.n)) }))
    .filter((g) => g.results.length > 0)
  const kept = new Set(groups.flatMap((g) => g.results.map((r) => r.n)))
  let answer = s.answer
  if (answer) {
    const citations = answer.citations.filter((n) => kept.has(n))
    answer = { ...answer, citations, text: answer.source === 'llm' ? keepCitations(answer.text, kept) : answer.text }
  }
  const lead = s.lead && { ...s.lead, citations: s.lead.citations.filter((n) => kept.has(n)) }
  return { ...s, groups, answer, lead, omitted: s.omitted + drop.size }
}

/**
 * Shrinks a synthesis until its markdown and text renderings fit the budget: snippets are cut first, then tail
 * results (uncited before cited) are dropped and counted in `omitted`, then the answer and overview are cut.
 */
export function fitSynthesis(synthesis: Synthesis, budget: Budget): Synthesis {
  if (budget.maxChars === undefined && budget.maxTokens === undefined) return synthesis
  const s0: Synthesis = { ...synthesis, budget: { ...budget } }
  if (fits(s0, budget)) return s0
  let s = s0
  for (const cap of [200, 120, 60]) {
    s = withSnippetCap(s0, cap)
    if (fits(s, budget)) return s
  }
  const cited = new Set(s.answer?.citations ?? [])
  const order = s.groups
    .flatMap((g) => g.results.map((r) => r.n))
    .sort((a, b) => Number(cited.has(a)) - Number(cited.has(b)) || b - a)
  // Binary search on how many to drop: the length falls as results go (the "N omitted" line grows by a digit at most).
  let lo = 1
  let hi = order.length
  let best: Synthesis | undefined
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const candidate = without(s, new Set(order.slice(0, mid)))
    if (fits(candidate, budget)) {
      best = candidate
      hi = mid - 1
    } else lo = mid + 1
  }
  if (best) return best
  s = without(s, new Set(order))
  for (const cap of [400, 200, 100, 40]) {
    s = {
      ...s,
      conflicts: [],
      overview: s.overview === undefined ? undefined : clip(s.overview, cap),
      answer: s.answer && { ...s.answer, text: clip(s.answer.text, cap) },
      lead: s.lead && { ...s.lead, text: clip(s.lead.text, cap) },
    }
    if (fits(s, budget)) return s
  }
  return s
}

/** Budget in characters and tokens from the options. */
export function budgetOf(options: SynthesisOptions): Budget {
  const budget: Budget = {}
  if (options.maxChars !== undefined) budget.maxChars = Math.max(1, Math.floor(options.maxChars))
  if (options.maxTokens !== undefined) budget.maxTokens = Math.max(1, Math.floor(options.maxTokens))
  return budget
}

/**
 * Turns scored results (and an optional provider answer) into an answer-first, topic-grouped synthesis with
 * conflicts and confidence, fitted to `maxChars`/`maxTokens`. Pure and deterministic. Throws `InputError` on
 * input that does not match `SynthesisInputSchema`.
 */
export function synthesize(input: SynthesisInput, options: SynthesisOptions = {}): Synthesis {
  return fitSynthesis(buildSynthesis(input, options), budgetOf(options))
}
