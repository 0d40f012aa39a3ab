import { HAN_CLASS } from '@search-layer/core/text'
import { EN_STOPWORDS, sentences } from './_text.js'
import type { Conflict, SynthesisLanguage } from './types.js'

/** A result as the conflict detector sees it. */
export interface ClaimDoc {
  n: number
  title: string
  snippet: string
  site: string
}

interface RawClaim {
  key: string
  kind: Conflict['kind']
  subject: string
  unit: string
  /** Normalised value: version components, date parts or a number. */
  norm: number[]
  shown: string
  n: number
  site: string
}

const NAME = '(?<![A-Za-z0-9+#.-])([A-Za-z][A-Za-z0-9+#.-]*[A-Za-z0-9+#]|[A-Z])'
const VERSION_FILLER =
  '(?:latest|current|stable|newest|new|version|release[sd]?|is|was|now|at|to|the|最新|稳定|正式|当前|版本号|版本|版|发布|为|是|的|已|到|了|:|：|,|，)'
// After a number, these make it a quantity ("2.5x faster", "1.5倍", "3.2万 stars"), not a version.
const QUANTITY_UNIT = ['%', 'x\\b', '×', '倍', 'ms\\b', 'GB', 'MB', 'times', '万', '亿'].join('|')
const VERSION_RE = new RegExp(
  String.raw`${NAME}\s*(?:${VERSION_FILLER}\s*){0,5}[vV]?(\d+\.\d+(?:\.\d+){0,2})(?![\d.]*\d)(?!\s*(?:${QUANTITY_UNIT}))`,
  'gu',
)

const MONTH_NAMES = 'jan feb mar apr may jun jul aug sep oct nov dec'.split(' ')
const MONTH =
  '(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)'
const DATE_PATTERNS: { re: RegExp; parts: (m: RegExpExecArray) => number[] }[] = [
  { re: /(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)/g, parts: (m) => [Number(m[1]), Number(m[2]), Number(m[3])] },
  {
    re: new RegExp(String.raw`\b${MONTH}\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`, 'gi'),
    parts: (m) => [Number(m[3]), month(m[1]!), Number(m[2])],
  },
  {
    re: new RegExp(String.raw`\b(\d{1,2})\s+${MONTH}\.?,?\s+(\d{4})\b`, 'gi'),
    parts: (m) => [Number(m[3]), month(m[2]!), Number(m[1])],
  },
  { re: new RegExp(String.raw`\b${MONTH}\.?\s+(\d{4})\b`, 'gi'), parts: (m) => [Number(m[2]), month(m[1]!)] },
  {
    re: /(\d{4})\s*年\s*(\d{1,2})\s*月(?:\s*(\d{1,2})\s*[日号])?/g,
    parts: (m) => (m[3] ? [Number(m[1]), Number(m[2]), Number(m[3])] : [Number(m[1]), Number(m[2])]),
  },
]
const EVENT_RE =
  /\b(?:released|launched|announced|shipped|unveiled|debuted|went live|became available|arrived)\b|发布|推出|上线|发表|亮相|问世|面世/i

const NUMBER_RE =
  /(?<![\w.,])(US\$|\$|¥|€)?\s?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(k|m|bn|b|million|billion|thousand|万|亿)?\s*(%|percent|x|×|倍|times|stars?|颗星|个星|星标|users?|用户|downloads?|次下载|tokens?|parameters|params|ms|milliseconds|seconds|秒|GB|MB|TB|USD|dollars|美元|元)?(?![\p{L}\p{N}])/giu
const MULTIPLIER: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  million: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
  万: 1e4,
  亿: 1e8,
}
const UNIT: Record<string, string> = {
  '%': '%',
  percent: '%',
  x: 'x',
  '×': 'x',
  倍: 'x',
  times: 'x',
  star: 'stars',
  stars: 'stars',
  颗星: 'stars',
  个星: 'stars',
  星标: 'stars',
  user: 'users',
  users: 'users',
  用户: 'users',
  download: 'downloads',
  downloads: 'downloads',
  次下载: 'downloads',
  token: 'tokens',
  tokens: 'tokens',
  parameters: 'parameters',
  params: 'parameters',
  ms: 'ms',
  milliseconds: 'ms',
  seconds: 's',
  秒: 's',
  gb: 'GB',
  mb: 'MB',
  tb: 'TB',
  usd: 'usd',
  dollars: 'usd',
  美元: 'usd',
  元: 'cny',
}
const CURRENCY: Record<string, string> = { $: 'usd', us$: 'usd', '¥': 'cny', '€': 'eur' }
const UNIT_LABEL: Record<SynthesisLanguage, Record<string, string>> = {
  en: { '%': 'percentage', x: 'speed-up', usd: 'price', cny: 'price', eur: 'price', '': 'figure' },
  zh: {
    '%': '百分比',
    x: '倍数',
    usd: '价格',
    cny: '价格',
    eur: '价格',
    stars: '星标数',
    users: '用户数',
    downloads: '下载量',
    tokens: 'token 数',
    parameters: '参数量',
    ms: '耗时',
    s: '耗时',
    '': '数值',
  },
}
// Words between a subject and its number that carry no meaning of their own.
const NUMBER_FILLER = new Set([
  'over',
  'than',
  'more',
  'less',
  'up',
  'down',
  'by',
  'about',
  'around',
  'nearly',
  'almost',
  'roughly',
  'approximately',
  'some',
  'total',
  'now',
])
const HAN_FILLER = /[有为是达约超过已共上到突破近逾将大概多了的在于和与及其该]+$/u
const TOKEN_RE = new RegExp(`[A-Za-z][A-Za-z0-9+#.-]*[A-Za-z0-9+#]|[A-Za-z]|[${HAN_CLASS}]+`, 'gu')

function month(name: string): number {
  return MONTH_NAMES.indexOf(name.slice(0, 3).toLowerCase()) + 1
}

function isSubject(word: string, queryKeys: ReadonlySet<string>, strict: boolean): boolean {
  const lower = word.toLowerCase()
  if (EN_STOPWORDS.has(lower) || NUMBER_FILLER.has(lower) || month(word) > 0) return false
  if (!strict) return lower.length >= 2
  // Version and date subjects are product names: capitalised, with a digit, or named in the query.
  return /^[A-Z]/.test(word) || /\d/.test(word) || queryKeys.has(lower)
}

function blank(text: string, start: number, end: number): string {
  return text.slice(0, start) + ' '.repeat(end - start) + text.slice(end)
}

function extractVersions(
  sentence: string,
  queryKeys: ReadonlySet<string>,
  out: Omit<RawClaim, 'n' | 'site'>[],
): string {
  let rest = sentence
  for (const m of sentence.matchAll(VERSION_RE)) {
    const subject = m[1]!
    if (!isSubject(subject, queryKeys, true)) continue
    const value = m[2]!
    out.push({
      key: `version:${subject.toLowerCase()}`,
      kind: 'version',
      subject,
      unit: '',
      norm: value.split('.').map(Number),
      shown: value,
    })
    const at = m.index! + m[0].length - value.length
    rest = blank(rest, at, at + value.length)
  }
  return rest
}

function extractDate(sentence: string, queryKeys: ReadonlySet<string>, out: Omit<RawClaim, 'n' | 'site'>[]): string {
  const found: { start: number; end: number; parts: number[]; text: string }[] = []
  for (const { re, parts } of DATE_PATTERNS) {
    for (const m of sentence.matchAll(re)) {
      const start = m.index!
      const end = start + m[0].length
      if (found.some((f) => start < f.end && end > f.start)) continue
      const p = parts(m as RegExpExecArray)
      if (p[1] !== undefined && (p[1] < 1 || p[1] > 12)) continue
      found.push({ start, end, parts: p, text: m[0] })
    }
  }
  let rest = sentence
  for (const f of found) rest = blank(rest, f.start, f.end)
  const event = EVENT_RE.exec(sentence)
  const first = found.sort((a, b) => a.start - b.start)[0]
  if (!event || !first) return rest
  const subject = subjectBefore(sentence.slice(0, Math.min(first.start, event.index)), queryKeys, true, 'first')
  if (subject)
    out.push({
      key: `date:${subject.toLowerCase()}`,
      kind: 'date',
      subject,
      unit: '',
      norm: first.parts,
      shown: isoOf(first.parts),
    })
  return rest
}

function isoOf(parts: number[]): string {
  return parts.map((p, i) => (i === 0 ? String(p) : String(p).padStart(2, '0'))).join('-')
}

// The subject of a claim: the first (dates) or nearest (numbers) name before it in the same sentence.
function subjectBefore(
  prefix: string,
  queryKeys: ReadonlySet<string>,
  strict: boolean,
  which: 'first' | 'nearest',
): string | undefined {
  const tokens = [...prefix.matchAll(TOKEN_RE)].map((m) => m[0])
  if (which === 'nearest') tokens.reverse()
  for (const token of tokens) {
    if (/^[A-Za-z]/.test(token)) {
      if (isSubject(token, queryKeys, strict)) return token
      continue
    }
    const han = which === 'nearest' ? token.replace(HAN_FILLER, '') : token.replace(/[于在将已的].*$/u, '')
    const chars = Array.from(han)
    if (chars.length >= 2) return which === 'nearest' ? chars.slice(-4).join('') : chars.slice(0, 4).join('')
  }
  return undefined
}

function extractNumbers(sentence: string, queryKeys: ReadonlySet<string>, out: Omit<RawClaim, 'n' | 'site'>[]): void {
  for (const m of sentence.matchAll(NUMBER_RE)) {
    const [, currency, digits, mult, unitRaw] = m
    const unit = currency ? CURRENCY[currency.toLowerCase()]! : unitRaw ? UNIT[unitRaw.toLowerCase()]! : ''
    if (!unit && !mult) continue
    const value = Number(digits!.replace(/,/g, '')) * (mult ? MULTIPLIER[mult.toLowerCase()]! : 1)
    if (!Number.isFinite(value)) continue
    // Four-digit numbers without a unit are years far more often than quantities.
    if (!unit && /^\d{4}$/.test(digits!)) continue
    const subject = subjectBefore(sentence.slice(0, m.index), queryKeys, false, 'nearest')
    if (!subject) continue
    out.push({
      key: `number:${subject.toLowerCase()}|${unit}`,
      kind: 'number',
      subject,
      unit,
      norm: [value],
      shown: m[0].trim(),
    })
  }
}

/** Every claim of one result, without subjects it gives two different values for (comparisons, changelogs). */
function claimsOf(doc: ClaimDoc, queryKeys: ReadonlySet<string>): RawClaim[] {
  const raw: Omit<RawClaim, 'n' | 'site'>[] = []
  for (const sentence of sentences(`${doc.title}. ${doc.snippet}`)) {
    let rest = extractVersions(sentence, queryKeys, raw)
    rest = extractDate(rest, queryKeys, raw)
    extractNumbers(rest, queryKeys, raw)
  }
  const byKey = new Map<string, Omit<RawClaim, 'n' | 'site'>[]>()
  for (const c of raw) byKey.set(c.key, [...(byKey.get(c.key) ?? []), c])
  const out: RawClaim[] = []
  for (const list of byKey.values()) {
    const first = list[0]!
    if (list.every((c) => compatible(first, c))) out.push({ ...first, n: doc.n, site: doc.site })
  }
  return out
}

// Two values agree when one is a less precise form of the other (1.2 vs 1.2.3, 2025-08 vs 2025-08-07) or numbers are within 2%.
function compatible(a: Pick<RawClaim, 'kind' | 'norm'>, b: Pick<RawClaim, 'kind' | 'norm'>): boolean {
  if (a.kind === 'number') {
    const x = a.norm[0]!
    const y = b.norm[0]!
    return Math.abs(x - y) <= 0.02 * Math.max(Math.abs(x), Math.abs(y))
  }
  const len = Math.min(a.norm.length, b.norm.length)
  for (let i = 0; i < len; i++) if (a.norm[i] !== b.norm[i]) return false
  return true
}

function subjectLabel(claim: RawClaim, language: SynthesisLanguage): string {
  if (claim.kind === 'version') return language === 'zh' ? `${claim.subject} 版本` : `${claim.subject} version`
  if (claim.kind === 'date') return language === 'zh' ? `${claim.subject} 发布日期` : `${claim.subject} release date`
  const unit = UNIT_LABEL[language][claim.unit] ?? claim.unit
  return `${claim.subject} ${unit}`
}

/**
 * Finds subjects that results give incompatible versions, release dates or quantities for. Only claims from at
 * least two different sites count, so one site repeating itself never makes a conflict.
 */
export function detectConflicts(
  docs: readonly ClaimDoc[],
  queryKeys: ReadonlySet<string>,
  language: SynthesisLanguage,
  max = 5,
): Conflict[] {
  const byKey = new Map<string, RawClaim[]>()
  for (const doc of docs) for (const c of claimsOf(doc, queryKeys)) byKey.set(c.key, [...(byKey.get(c.key) ?? []), c])
  const conflicts: { conflict: Conflict; weight: number; first: number }[] = []
  for (const claims of byKey.values()) {
    if (new Set(claims.map((c) => c.site)).size < 2) continue
    const disagree = claims.some((a, i) => claims.slice(i + 1).some((b) => !compatible(a, b) && a.site !== b.site))
    if (!disagree) continue
    // Claims with compatible values share one entry, shown in the most precise form given.
    const values: { rep: RawClaim; results: Set<number>; sources: Set<string> }[] = []
    for (const c of claims) {
      const same = values.find((v) => compatible(v.rep, c))
      if (same) {
        if (c.norm.length > same.rep.norm.length) same.rep = c
        same.results.add(c.n)
        same.sources.add(c.site)
      } else values.push({ rep: c, results: new Set([c.n]), sources: new Set([c.site]) })
    }
    if (values.length < 2) continue
    values.sort((a, b) => b.results.size - a.results.size || Math.min(...a.results) - Math.min(...b.results))
    conflicts.push({
      conflict: {
        subject: subjectLabel(claims[0]!, language),
        kind: claims[0]!.kind,
        claims: values.map((v) => ({
          value: v.rep.shown,
          results: [...v.results].sort((a, b) => a - b),
          sources: [...v.sources].sort(),
        })),
      },
      weight: claims.length,
      first: Math.min(...claims.map((c) => c.n)),
    })
  }
  conflicts.sort((a, b) => b.weight - a.weight || a.first - b.first)
  return conflicts.slice(0, max).map((c) => c.conflict)
}
