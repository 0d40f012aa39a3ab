import { z } from 'zod'
import { InputError } from './errors.js'
import { CJK_CLASS } from './text/scripts.js'

/**
 * The request filters a query's operators become. A provider definition lists the ones it applies natively
 * (`ProviderDefinition.queryFilters`); the engine enforces domains, dates, languages it can check, excluded terms and
 * file types on the merged results whatever the providers did.
 */
export const QUERY_FILTER_KINDS = [
  'site',
  'exclude-site',
  'date',
  'lang',
  'phrase',
  'exclude-term',
  'filetype',
] as const
export type QueryFilterKind = (typeof QUERY_FILTER_KINDS)[number]

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), 'not a real calendar date')
const hostname = z
  .string()
  .max(253)
  .regex(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/, 'expected a domain such as example.com')

/** One operator as the user typed it: `site:github.com` is `{ name: 'site', value: 'github.com' }`. */
export const QueryOperatorSchema = z.object({
  name: z.enum(['site', '-site', 'before', 'after', 'lang', 'filetype', 'phrase', '-term']),
  value: z.string().min(1),
  /** The operator's text in the query, e.g. `-site:pinterest.com` or `"error handling"`. */
  raw: z.string().min(1),
})
export type QueryOperator = z.infer<typeof QueryOperatorSchema>

/** The typed filters of a query's operators. Dates are inclusive days (UTC). */
export const QueryFiltersSchema = z.object({
  includeDomains: z.array(hostname),
  excludeDomains: z.array(hostname),
  /** From `after:` (first day on or after) and `before:` (last day before); open ends are absent. */
  dateRange: z.object({ from: isoDay.optional(), to: isoDay.optional() }).optional(),
  /** Primary BCP 47 language subtag, lower case (`de`, `zh`). */
  language: z
    .string()
    .regex(/^[a-z]{2,3}$/)
    .optional(),
  phrases: z.array(z.string().min(1)),
  excludeTerms: z.array(z.string().min(1)),
  /** File extensions without the dot, lower case (`pdf`). */
  fileTypes: z.array(z.string().regex(/^[a-z0-9]{1,10}$/)),
})
export type QueryFilters = z.infer<typeof QueryFiltersSchema>

/** A query split into the words to search for and the operators it carried. */
export interface ParsedQuery {
  /** The query without operators: phrases keep their words (unquoted), excluded terms are gone. */
  text: string
  operators: QueryOperator[]
  filters: QueryFilters
}

// `ext:` is Brave's and Bing's spelling of `filetype:`.
const OPERATOR = /^(-?)(site|before|after|lang|filetype|ext):(.*)$/is
const OPERATOR_AFTER_CJK = new RegExp(`([${CJK_CLASS}])(-?(?:site|before|after|lang|filetype|ext):)`, 'giu')
const QUOTES: Readonly<Record<string, string>> = { '"': '"', '“': '”', '「': '」', '『': '』' }
const SPACE = /[\s\u3000]/u
// A minus before a letter excludes a word (Google's rule); `-1` and `--flag` stay text.
const EXCLUDED_WORD = /^-(\p{L}\S*)$/u

/**
 * Splits the operators out of a query: `site:`, `-site:`, `before:`, `after:`, `lang:`, `filetype:` (or `ext:`),
 * `"quoted phrases"` (also “…” and 「…」) and `-word`. Text inside quotes is never read as an operator; an operator
 * glued to Chinese or Japanese text (`教程site:github.com`) still counts. Pure. Throws `InputError` naming the
 * operator and what it accepts when a value is unusable, when the dates leave no day, or when only operators are left.
 */
export function parseQueryOperators(query: string): ParsedQuery {
  const operators: QueryOperator[] = []
  const words: string[] = []
  // Most queries have no operator: the Unicode patterns are only run (and compiled: ~0.3 ms of a fresh process's first
  // query) when the text could hold one.
  const spaced = query.includes(':') ? query.replace(OPERATOR_AFTER_CJK, '$1 $2') : query
  for (const token of tokenize(spaced)) {
    if (token.quoted) {
      const phrase = token.text.replace(/\s+/gu, ' ').trim()
      if (!phrase) continue
      if (token.negated) operators.push({ name: '-term', value: phrase, raw: `-"${phrase}"` })
      else {
        operators.push({ name: 'phrase', value: phrase, raw: `"${phrase}"` })
        words.push(phrase)
      }
      continue
    }
    const operator = OPERATOR.exec(token.text)
    if (operator) {
      operators.push(readOperator(operator[1] === '-', operator[2]!.toLowerCase(), operator[3]!, token.text))
      continue
    }
    const excluded = token.text.startsWith('-') ? EXCLUDED_WORD.exec(token.text) : null
    if (excluded) operators.push({ name: '-term', value: excluded[1]!, raw: token.text })
    else words.push(token.text)
  }
  const text = words.join(' ').trim()
  const filters = filtersOf(operators)
  if (!text && operators.length > 0)
    throw new InputError(
      `the query has only operators (${operators.map((o) => o.raw).join(' ')}): add the words to search for`,
      [{ path: 'query', message: 'nothing to search for besides operators' }],
    )
  return { text, operators, filters: QueryFiltersSchema.parse(filters) }
}

interface Token {
  text: string
  quoted: boolean
  negated: boolean
}

/** Whitespace-separated tokens; a quote opens a phrase only at a token start and only when it is closed. */
function tokenize(query: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < query.length) {
    while (i < query.length && SPACE.test(query[i]!)) i++
    if (i >= query.length) break
    const negated = query[i] === '-' && QUOTES[query[i + 1] ?? ''] !== undefined
    const open = query[negated ? i + 1 : i]!
    const close = QUOTES[open]
    if (close !== undefined) {
      const start = (negated ? i + 1 : i) + 1
      const end = query.indexOf(close, start)
      if (end !== -1) {
        tokens.push({ text: query.slice(start, end), quoted: true, negated })
        i = end + 1
        continue
      }
    }
    let end = i
    while (end < query.length && !SPACE.test(query[end]!)) end++
    tokens.push({ text: query.slice(i, end), quoted: false, negated: false })
    i = end
  }
  return tokens
}

const DATE_HELP = 'YYYY, YYYY-MM or YYYY-MM-DD (e.g. 2025-01-01)'

function readOperator(negated: boolean, keyword: string, value: string, raw: string): QueryOperator {
  const name = keyword === 'ext' ? 'filetype' : keyword
  if (negated && name !== 'site')
    throw operatorError(raw, `-${name}: cannot be negated; only -site: excludes (use after:/before: for dates)`)
  if (!value)
    throw operatorError(
      raw,
      `${raw} has no value: ${EXAMPLES[name as keyof typeof EXAMPLES]}, with no space after the colon`,
    )
  switch (name) {
    case 'site':
      return { name: negated ? '-site' : 'site', value: readDomain(value, raw), raw }
    case 'before':
    case 'after':
      return { name, value: readDate(name, value, raw), raw }
    case 'lang':
      return { name, value: readLanguage(value, raw), raw }
    default:
      return { name: 'filetype', value: readFileType(value, raw), raw }
  }
}

const EXAMPLES = {
  site: 'write a domain, e.g. site:example.com',
  before: `write a date as ${DATE_HELP}`,
  after: `write a date as ${DATE_HELP}`,
  lang: 'write a language code, e.g. lang:de or lang:zh',
  filetype: 'write a file extension, e.g. filetype:pdf',
} as const

function operatorError(raw: string, message: string): InputError {
  return new InputError(message, [{ path: 'query', message: `operator ${raw}` }])
}

function readDomain(value: string, raw: string): string {
  const bare = value
    .trim()
    .replace(/^https?:\/\//i, '')
    .replace(/\/$/, '')
  let host = ''
  if (!/[/?#@\s]/.test(bare)) {
    try {
      // URL parsing lower-cases and punycodes international names (例子.中国 → xn--fsqu00a.xn--fiqs8s).
      host = new URL(`http://${bare}`).hostname.replace(/^www\./, '')
    } catch {
      host = ''
    }
  }
  if (!hostname.safeParse(host).success)
    throw operatorError(raw, `${raw}: "${value}" is not a domain; ${EXAMPLES.site} (no path, no scheme needed)`)
  return host
}

/** `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (also with `/` or `.`): `after:` starts on the period's first day, `before:`
 * ends on the day before it. */
function readDate(name: 'before' | 'after', value: string, raw: string): string {
  const parts = /^(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?$/.exec(value.trim())
  const fail = () => operatorError(raw, `${raw}: "${value}" is not a date; write ${name}:${DATE_HELP}`)
  if (!parts) throw fail()
  const year = Number(parts[1])
  const month = parts[2] === undefined ? 1 : Number(parts[2])
  const day = parts[3] === undefined ? 1 : Number(parts[3])
  const start = new Date(Date.UTC(year, month - 1, day))
  if (month < 1 || month > 12 || start.getUTCDate() !== day || start.getUTCMonth() !== month - 1) throw fail()
  if (name === 'after') return start.toISOString().slice(0, 10)
  return new Date(start.getTime() - 86_400_000).toISOString().slice(0, 10)
}

function readLanguage(value: string, raw: string): string {
  const match = /^([a-z]{2,3})(?:[-_][a-z0-9]{2,8})*$/i.exec(value.trim())
  if (!match) throw operatorError(raw, `${raw}: "${value}" is not a language code; ${EXAMPLES.lang}`)
  return match[1]!.toLowerCase()
}

function readFileType(value: string, raw: string): string {
  const ext = value.trim().replace(/^\./, '').toLowerCase()
  if (!/^[a-z0-9]{1,10}$/.test(ext))
    throw operatorError(raw, `${raw}: "${value}" is not a file extension; ${EXAMPLES.filetype}`)
  return ext
}

function filtersOf(operators: readonly QueryOperator[]): QueryFilters {
  const all = (name: QueryOperator['name']) => [
    ...new Set(operators.filter((o) => o.name === name).map((o) => o.value)),
  ]
  const afters = all('after').sort()
  const befores = all('before').sort()
  // Several after:/before: narrow the range: the latest start, the earliest end.
  const from = afters.at(-1)
  const to = befores[0]
  if (from !== undefined && to !== undefined && from > to) {
    const after = operators.find((o) => o.name === 'after' && o.value === from)!.raw
    const before = operators.find((o) => o.name === 'before' && o.value === to)!.raw
    throw new InputError(`${after} is not earlier than ${before}: no date can match; widen the range`, [
      { path: 'query', message: `operators ${after} ${before}` },
    ])
  }
  const languages = all('lang')
  if (languages.length > 1)
    throw new InputError(`one lang: per query, got ${languages.map((l) => `lang:${l}`).join(' and ')}`, [
      { path: 'query', message: 'operator lang:' },
    ])
  const exclude = all('-site')
  return {
    includeDomains: all('site').filter((d) => !exclude.includes(d)),
    excludeDomains: exclude,
    ...((from !== undefined || to !== undefined) && {
      dateRange: { ...(from !== undefined && { from }), ...(to !== undefined && { to }) },
    }),
    ...(languages[0] !== undefined && { language: languages[0] }),
    phrases: all('phrase'),
    excludeTerms: all('-term'),
    fileTypes: all('filetype'),
  }
}

/**
 * The query text for a source that reads operators in its query (Brave, DuckDuckGo, SearXNG…): `text` with each
 * phrase quoted where it occurs (appended when a sub-query lacks it), then `-term`s and `filetype:`s. Pure.
 */
export function queryWithOperators(request: {
  query: string
  phrases?: readonly string[]
  excludeTerms?: readonly string[]
  fileTypes?: readonly string[]
}): string {
  let text = request.query
  for (const phrase of request.phrases ?? []) {
    const at = text.toLowerCase().indexOf(phrase.toLowerCase())
    text =
      at === -1
        ? `${text} "${phrase}"`
        : `${text.slice(0, at)}"${text.slice(at, at + phrase.length)}"${text.slice(at + phrase.length)}`
  }
  const extra = [
    ...(request.excludeTerms ?? []).map((t) => (/\s/.test(t) ? `-"${t}"` : `-${t}`)),
    ...(request.fileTypes ?? []).map((t) => `filetype:${t}`),
  ]
  return extra.length ? `${text} ${extra.join(' ')}` : text
}

/**
 * `queryWithOperators`, plus the domain filters as operators for a source that has no parameters for them (DuckDuckGo,
 * SearXNG): `site:` for one domain, `(site:a OR site:b)` for several, `-site:` for each excluded one. Pure.
 */
export function queryWithSiteOperators(request: {
  query: string
  phrases?: readonly string[]
  excludeTerms?: readonly string[]
  fileTypes?: readonly string[]
  includeDomains?: readonly string[]
  excludeDomains?: readonly string[]
}): string {
  const include = request.includeDomains ?? []
  const site =
    include.length === 1
      ? `site:${include[0]}`
      : include.length > 1
        ? `(${include.map((d) => `site:${d}`).join(' OR ')})`
        : ''
  const exclude = (request.excludeDomains ?? []).map((d) => `-site:${d}`)
  return [queryWithOperators(request), site, ...exclude].filter(Boolean).join(' ')
}
