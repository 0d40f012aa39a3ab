import type { ProviderErrorKind } from '@search-layer/core'
import type { LlmEndpoint } from '@search-layer/core/http'
import { z } from 'zod'

/** One scored result as the engine returns it (`SearchResponse.results[n]`); extra fields are ignored. */
export const SynthesisResultInputSchema = z.object({
  title: z.string(),
  url: z.string().min(1),
  snippet: z.string().nullish(),
  published_date: z.string().nullish(),
  /** Alternative spelling for callers that are not the engine. */
  publishedAt: z.string().nullish(),
  /** Providers that returned it (`['brave', 'exa']`). */
  sources: z.array(z.string()).readonly().optional(),
  /** `"brave, exa"`: used when `sources` is missing. */
  source: z.string().optional(),
  score: z.number().finite().optional(),
})

/** One passage of a read page as the engine returns it (`SearchResponse.passages[n]`, best first); extra fields are ignored. */
const SynthesisPassageInputSchema = z.object({
  id: z.string(),
  url: z.string(),
  heading: z.string().optional(),
  text: z.string(),
  /** Rank of the page's result (1 for the top one): the result the passage is cited under. */
  resultRank: z.number().int().positive(),
})

/** What `synthesize` reads; the engine's `SearchResponse` satisfies it as is. */
export const SynthesisInputSchema = z.object({
  query: z.string(),
  results: z.array(SynthesisResultInputSchema).readonly(),
  answer: z.string().nullish(),
  answerSource: z.string().optional(),
  /** The engine's spelling of `answerSource`. */
  answer_source: z.string().optional(),
  intent: z.string().nullish(),
  /** With a search that read its top results: their best passages, best first. The answer line is built from them. */
  passages: z.array(SynthesisPassageInputSchema).readonly().optional(),
})

/** One passage of the input. */
export type SynthesisPassageInput = z.input<typeof SynthesisPassageInputSchema>

/** One result of the input. */
export type SynthesisResultInput = z.input<typeof SynthesisResultInputSchema>
/** The input of `synthesize`: the query, its scored results and an optional provider answer. */
export type SynthesisInput = z.input<typeof SynthesisInputSchema>

/** Output language of the wording around results. */
export type SynthesisLanguage = 'en' | 'zh'

/** Options of `synthesize`. */
export interface SynthesisOptions {
  /** Largest rendered markdown/text (characters): snippets are cut first, then tail results dropped. */
  maxChars?: number
  /** Rough token budget (~4 chars/token for Latin, ~1 per Han character) for the rendered markdown/text. */
  maxTokens?: number
  /** Clock for freshness; default `new Date()`. */
  now?: Date
  /** Wording language; default: `zh` when the query contains Han characters, else `en`. */
  language?: SynthesisLanguage
  /** A group whose newest dated result is older than this is stated with "According to…". Default by intent (news 30, status 180, else 730). */
  staleAfterDays?: number
  /** Longest snippet kept per result before any budget applies. Default 300. */
  maxSnippetChars?: number
}

/** An OpenAI-compatible chat endpoint (core's): `url` is the API base (`https://host/v1`) or the full `/chat/completions` URL. */
export type { LlmEndpoint } from '@search-layer/core/http'

/** Options of `synthesizeWithLlm`: the synthesis options plus the model endpoint and its deadline. */
export interface SynthesizeWithLlmOptions extends SynthesisOptions {
  /** The model; `false` turns it off, `undefined` means "not configured" (reported as `fallbackReason: 'config'`). */
  llm?: LlmEndpoint | false
  signal?: AbortSignal
  /** Deadline of the model call (ms). Default 15 000. */
  timeoutMs?: number
}

/** Why the model's answer was not used. */
export type LlmFallbackReason = ProviderErrorKind | 'no_valid_citation' | 'no_results'

/** How sure the wording may be: several fresh independent sites, one site or old pages, or disagreement. */
export type Confidence = 'high' | 'medium' | 'low'

/** One result in the output; `n` is its 1-based rank in the input and the number citations use. */
export interface SynthesizedResult {
  n: number
  title: string
  url: string
  snippet: string
  sources: string[]
  score?: number
  /** ISO date as given by the provider, or null. */
  publishedAt: string | null
}

/** A topic: results sharing salient terms, with a one-line summary worded by confidence. */
export interface SynthesisGroup {
  label: string
  terms: string[]
  summary: string
  confidence: Confidence
  results: SynthesizedResult[]
}

/** One value claimed for a subject, with the results (by `n`) and sites that claim it. */
export interface ConflictClaim {
  value: string
  results: number[]
  sources: string[]
}

/** Results disagree about a version, a date or a number for the same subject. */
export interface Conflict {
  subject: string
  kind: 'version' | 'date' | 'number'
  claims: ConflictClaim[]
}

/** The answer that leads the output, with the results that support it. */
export interface SynthesisAnswer {
  text: string
  citations: number[]
  /** The provider that gave it (`tavily`, `grok`) or `llm`. */
  source: string
  confidence: Confidence
}

/**
 * The answer line when nobody wrote an answer: a sentence of the best on-topic passage (`passages`), of the best
 * on-topic top result (`results`), or nothing when no top result is about the query (`none`, said plainly).
 */
export interface SynthesisLead {
  text: string
  /** Results (by `n`) it is taken from or backed by. */
  citations: number[]
  /** Passage ids (`p1`) it is taken from. */
  passages: string[]
  basis: 'passages' | 'results' | 'none'
}

/** The structured synthesis the renderers turn into markdown, text or JSON. */
export interface Synthesis {
  query: string
  language: SynthesisLanguage
  answer: SynthesisAnswer | null
  /** What opens the output when `answer` is null and there are results. */
  lead: SynthesisLead | null
  /** `list` for ≤ 5 results, `grouped` for 6–15, `overview` for more. */
  strategy: 'list' | 'grouped' | 'overview'
  groups: SynthesisGroup[]
  /** A short paragraph summarising the main topics (`overview` strategy only). */
  overview?: string
  conflicts: Conflict[]
  /** Results found in total (before any budget). */
  total: number
  /** Providers across all results, most frequent first. */
  providers: string[]
  /** Results left out to fit `maxChars`/`maxTokens`. */
  omitted: number
  /** The budget the renderers hold to. */
  budget?: { maxChars?: number; maxTokens?: number }
  llm?: { used: boolean; fallbackReason?: LlmFallbackReason }
}

/** The JSON form for programs. */
export interface SynthesisJson {
  answer: { text: string; citations: number[]; source: string } | null
  lead: SynthesisLead | null
  groups: { label: string; summary: string; results: SynthesizedResult[] }[]
  conflicts: Conflict[]
  omitted: number
}
