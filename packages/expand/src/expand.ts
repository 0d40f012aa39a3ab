import type { FreshnessWindow, Intent } from '@search-layer/core'
import { timeoutSignal } from '@search-layer/core/http'
import { isChinese } from '@search-layer/core/text'
import { parseComparison } from './_comparison.js'
import {
  applySynonyms,
  clean,
  dedupeKey,
  type Replacement,
  removeTerms,
  translateWithGlossary,
  trimEdges,
} from './_text.js'

/** The part of `@search-layer/intent`'s classification that expansion reads. */
export interface ExpandClassification {
  intent: Intent
  freshness?: FreshnessWindow | null
  signals?: readonly { intent?: Intent; term: string; lang?: 'en' | 'zh' }[]
}

/** Why a sub-query exists. */
export type SubQueryKind = 'original' | 'synonym' | 'translation' | 'intent'

/** One sub-query to send to providers, with why it was generated. */
export interface SubQuery {
  query: string
  kind: SubQueryKind
  /** A short human-readable explanation. */
  reason: string
}

/** The sub-queries in order, the original first. */
export interface ExpandResult {
  queries: SubQuery[]
}

/** Options for `expandQuery`. */
export interface ExpandQueryOptions {
  /** Most sub-queries returned, the original included. Default 3. */
  maxQueries?: number
  /** Clock for years and dates in status/news expansions. */
  now?: () => Date
}

/** Options for `expandQueryWithLlm`: `expandQuery`'s plus the translation hook and its deadline. */
export interface ExpandQueryWithLlmOptions extends ExpandQueryOptions {
  /** Translates Chinese text to English; used only when the glossary cannot cover it. */
  translate?: (zh: string, options: { signal: AbortSignal }) => Promise<string>
  signal?: AbortSignal
  /** Deadline for the translate call (ms). Default 8000. */
  timeoutMs?: number
}

const DEFAULT_MAX_QUERIES = 3
// Beyond this, adding angle words to the query no longer helps a search engine; only the original is kept.
const MAX_EXPANDABLE_CHARS = 500
// Signal words that also name the subject matter ("deploy", "安装"): they stay in the topic the angles are built on.
const KEEP_IN_TOPIC = new Set([
  'deploy',
  'install',
  'installing',
  'installation',
  'configure',
  'setup',
  'set up',
  'migrate',
  'fix',
  'learn',
  'build a',
  'example',
  'examples',
  'architecture',
  'research',
  'internals',
  'benchmark',
  'spec',
  'specification',
  'paper',
  'dataset',
  'template',
  'crate',
  'reference',
  'rfc',
  'pdf',
  'cheat sheet',
  'adoption',
  'roadmap',
  'changelog',
  'deprecated',
  '部署',
  '安装',
  '配置',
  '迁移',
  '学习',
  '搭建',
  '示例',
  '例子',
  '架构',
  '原理',
  '规范',
  '论文',
  '数据集',
  '手册',
  '模板',
  '底层',
  '路线图',
])
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

interface Plan {
  original: string
  variant?: SubQuery
  /** The query's subject in English where possible, signal words removed. */
  topic: string
  topicNote: string
}

/**
 * Expands a query into ordered, de-duplicated sub-queries (the original first), each with its reason:
 * an English or synonym variant, then angles for the intent. Pure and synchronous; never throws.
 */
export function expandQuery(
  query: string,
  classification: ExpandClassification,
  options: ExpandQueryOptions = {},
): ExpandResult {
  const plan = planFor(query, classification)
  if (!plan) return { queries: [] }
  return finish(plan, classification, options)
}

/**
 * Like `expandQuery`, and when the glossary cannot translate a Chinese query, asks `translate` for the English.
 * Never rejects: a failing, slow or empty translation leaves the rule-based result.
 */
export async function expandQueryWithLlm(
  query: string,
  classification: ExpandClassification,
  options: ExpandQueryWithLlmOptions = {},
): Promise<ExpandResult> {
  const plan = planFor(query, classification)
  if (!plan) return { queries: [] }
  const { translate, timeoutMs = 8000 } = options
  if (!translate || plan.variant?.kind === 'translation' || !isChinese(plan.topic))
    return finish(plan, classification, options)
  const signal = timeoutSignal(timeoutMs, options.signal)
  try {
    const english = await Promise.race([
      translate(plan.topic, { signal }),
      new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason)
        signal.addEventListener('abort', () => reject(signal.reason), { once: true })
      }),
    ])
    const topic = typeof english === 'string' ? clean(english) : ''
    if (topic && !isChinese(topic) && topic.length <= MAX_EXPANDABLE_CHARS) {
      const note = 'translated'
      return finish(
        {
          ...plan,
          topic,
          topicNote: note,
          variant: { query: topic, kind: 'translation', reason: 'English variant (translation hook)' },
        },
        classification,
        options,
      )
    }
  } catch {
    // A failed translation is not an error for the caller: the glossary-based expansion stands.
  }
  return finish(plan, classification, options)
}

function planFor(query: string, classification: ExpandClassification): Plan | undefined {
  const original = typeof query === 'string' ? clean(query) : ''
  if (!original) return undefined
  if (original.length > MAX_EXPANDABLE_CHARS) return { original, topic: '', topicNote: '' }

  const synonyms = applySynonyms(original)
  let variant: SubQuery | undefined
  if (isChinese(original)) {
    const translated = translateWithGlossary(synonyms.text)
    if (translated.complete)
      variant = {
        query: translated.text,
        kind: 'translation',
        reason: `English variant (${describe([...synonyms.applied, ...translated.applied])})`,
      }
  } else if (synonyms.applied.length > 0) {
    variant = { query: synonyms.text, kind: 'synonym', reason: `synonyms: ${describe(synonyms.applied)}` }
  }

  const own = (classification.signals ?? []).filter(
    (s) => (s.intent === undefined || s.intent === classification.intent) && !KEEP_IN_TOPIC.has(s.term.toLowerCase()),
  )
  const stripped = trimEdges(removeTerms(original, own))
  const subject = applySynonyms(stripped)
  const notes: Replacement[] = [...subject.applied]
  let topic = subject.text
  if (isChinese(topic)) {
    const translated = translateWithGlossary(topic)
    if (translated.complete) {
      topic = translated.text
      notes.push(...translated.applied)
    }
  }
  return { original, variant, topic: trimEdges(topic), topicNote: notes.length > 0 ? describe(notes) : '' }
}

function describe(replacements: readonly Replacement[]): string {
  return replacements.map((r) => `${r.from} → ${r.to}`).join(', ')
}

function finish(plan: Plan, classification: ExpandClassification, options: ExpandQueryOptions): ExpandResult {
  const max = Math.max(
    1,
    Math.floor(Number.isFinite(options.maxQueries) ? (options.maxQueries as number) : DEFAULT_MAX_QUERIES),
  )
  const now = safeNow(options.now)
  const candidates: SubQuery[] = [{ query: plan.original, kind: 'original', reason: 'original query' }]
  const { queries: extra, supersedesVariant } = plan.topic
    ? angles(plan, classification, now)
    : { queries: [], supersedesVariant: false }
  // "X vs Y" already is the normalised English form of a comparison, and the cap is better spent on each side.
  if (plan.variant && !supersedesVariant) candidates.push(plan.variant)
  candidates.push(...extra)
  const seen = new Set<string>()
  const queries: SubQuery[] = []
  for (const c of candidates) {
    const key = dedupeKey(c.query)
    if (!key || seen.has(key)) continue
    seen.add(key)
    queries.push(c)
    if (queries.length === max) break
  }
  return { queries }
}

function safeNow(now: (() => Date) | undefined): Date {
  try {
    const date = now ? now() : new Date()
    return date instanceof Date && !Number.isNaN(date.getTime()) ? date : new Date()
  } catch {
    return new Date()
  }
}

function dateLabel(window: FreshnessWindow | null | undefined, now: Date): string {
  const year = now.getUTCFullYear()
  if (window === 'pd') return now.toISOString().slice(0, 10)
  if (window === 'pw') return `this week ${year}`
  if (window === 'pm') return `${MONTHS[now.getUTCMonth()]} ${year}`
  return String(year)
}

function angles(
  plan: Plan,
  classification: ExpandClassification,
  now: Date,
): { queries: SubQuery[]; supersedesVariant: boolean } {
  if (classification.intent === 'comparison') return comparisonAngles(plan)
  return { queries: intentAngles(plan, classification, now), supersedesVariant: false }
}

function intentAngles(plan: Plan, classification: ExpandClassification, now: Date): SubQuery[] {
  const t = plan.topic
  const note = plan.topicNote ? `; ${plan.topicNote}` : ''
  const make = (query: string, reason: string): SubQuery => ({ query, kind: 'intent', reason: `${reason}${note}` })
  const year = now.getUTCFullYear()
  switch (classification.intent) {
    case 'factual':
      return [make(`${t} definition`, 'factual: definition'), make(`${t} explained`, 'factual: explanation')]
    case 'status':
      return [
        make(`${t} latest ${year}`, `status: latest, current year ${year}`),
        make(`${t} update release`, 'status: updates and releases'),
      ]
    case 'tutorial':
      return [
        make(`${t} tutorial`, 'tutorial: tutorial'),
        make(`${t} step by step guide`, 'tutorial: step-by-step guide'),
      ]
    case 'exploratory':
      return [
        make(`${t} overview`, 'exploratory: overview'),
        make(`${t} ecosystem`, 'exploratory: ecosystem'),
        make(`${t} use cases`, 'exploratory: use cases'),
      ]
    case 'news': {
      const label = dateLabel(classification.freshness, now)
      return [
        make(`${t} news ${label}`, `news: news, ${label}`),
        make(`${t} announcement latest`, 'news: announcements'),
      ]
    }
    case 'resource': {
      const wantsDownload = (classification.signals ?? []).some((s) => /download|installer|下载|安装包/i.test(s.term))
      const out = [
        make(`${t} official documentation`, 'resource: official documentation'),
        make(`${t} GitHub`, 'resource: GitHub repository'),
      ]
      return wantsDownload ? [make(`${t} official download`, 'resource: official download'), ...out] : out
    }
    default:
      return []
  }
}

function english(text: string): { text: string; notes: Replacement[] } {
  const synonyms = applySynonyms(text)
  if (!isChinese(synonyms.text)) return { text: synonyms.text, notes: synonyms.applied }
  const translated = translateWithGlossary(synonyms.text)
  return translated.complete
    ? { text: translated.text, notes: [...synonyms.applied, ...translated.applied] }
    : { text: synonyms.text, notes: synonyms.applied }
}

function comparisonAngles(plan: Plan): { queries: SubQuery[]; supersedesVariant: boolean } {
  const { entities, context } = parseComparison(plan.original)
  const note = plan.topicNote ? `; ${plan.topicNote}` : ''
  if (entities.length < 2) {
    const t = plan.topic
    return {
      queries: [
        { query: `${t} advantages`, kind: 'intent', reason: `comparison: one subject, its strengths${note}` },
        { query: `${t} alternatives`, kind: 'intent', reason: `comparison: one subject, its alternatives${note}` },
      ],
      supersedesVariant: false,
    }
  }
  const parts = entities.map((e) => english(e))
  const names = parts.map((p) => p.text)
  const ctx = context ? english(context) : undefined
  const notes = [...parts.flatMap((p) => p.notes), ...(ctx?.notes ?? [])]
  const versus = [names.join(' vs '), ctx?.text ?? ''].filter(Boolean).join(' ')
  const why = notes.length > 0 ? `; ${describe(notes)}` : ''
  return {
    queries: [
      { query: versus, kind: 'intent', reason: `comparison: ${names.join(' vs ')} head to head${why}` },
      ...names.map(
        (name): SubQuery => ({
          query: `${name} advantages`,
          kind: 'intent',
          reason: `comparison: strengths of ${name}`,
        }),
      ),
    ],
    supersedesVariant: true,
  }
}
