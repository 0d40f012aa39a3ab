import { MAX_QUERY_CHARS, type ProviderErrorKind, isProviderError } from '@search-layer/core'
import { type LlmEndpoint, chatCompletion, extractJsonObject } from '@search-layer/core/http'
import { llmVerdictSchema } from './_llm-schema.js'
import { normalize } from './_matcher.js'
import {
  type ClassifyIntentOptions,
  type IntentClassification,
  classifyIntent,
  freshnessFor,
  strategyFor,
  UNCERTAIN_BELOW,
} from './classify.js'

export type { LlmEndpoint }

/** Options for `classifyIntentWithLlm`: the rule options plus the model endpoint and its deadline. */
export interface ClassifyIntentWithLlmOptions extends ClassifyIntentOptions {
  /** The model to ask; without it the rules decide alone. */
  llm?: LlmEndpoint
  signal?: AbortSignal
  /** Deadline for the model call (ms). Default 8000. */
  timeoutMs?: number
  /** The model is asked only when the rules' confidence is below this. Default 0.65 (`UNCERTAIN_BELOW`): when they say `uncertain`. */
  minConfidence?: number
}

/** A classification plus who made it; `llmError` says why the model's answer was not used. */
export interface LlmIntentClassification extends IntentClassification {
  source: 'rules' | 'llm'
  llmError?: ProviderErrorKind
}

const DEFAULT_LLM_CONFIDENCE = 0.7

const SYSTEM_PROMPT = [
  'You classify web search queries (any language) into exactly one intent:',
  'factual (a definition or a fact: "what is X"), status (the current state or latest progress of X),',
  'comparison (X versus Y), tutorial (how to do something), exploratory (broad understanding of a topic),',
  'news (recent events, time-bound), resource (a specific site, docs, repository or download).',
  'Reply with only a JSON object: {"intent": "<one of the seven>", "confidence": <number 0..1>}.',
].join(' ')

function parseVerdict(
  content: string | null,
): ReturnType<ReturnType<typeof llmVerdictSchema>['safeParse']> | undefined {
  const json = extractJsonObject(content)
  return json === undefined ? undefined : llmVerdictSchema().safeParse(json)
}

/**
 * Classifies with the rules and, only when they are not confident, asks an OpenAI-compatible model.
 * Never rejects: any model failure (network, timeout, bad reply) falls back to the rules' answer.
 */
export async function classifyIntentWithLlm(
  query: string,
  options: ClassifyIntentWithLlmOptions = {},
): Promise<LlmIntentClassification> {
  const rules = classifyIntent(query, options)
  const { llm, minConfidence = UNCERTAIN_BELOW, timeoutMs = 8000 } = options
  if (!llm || rules.confidence >= minConfidence || typeof query !== 'string' || query.trim() === '')
    return { ...rules, source: 'rules' }
  try {
    const content = await chatCompletion(llm, {
      temperature: 0,
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: query.slice(0, MAX_QUERY_CHARS) },
      ],
      timeoutMs,
      ...(options.signal && { signal: options.signal }),
    })
    const verdict = parseVerdict(content)
    if (!verdict?.success) return { ...rules, source: 'rules', llmError: 'bad_response' }
    const { intent } = verdict.data
    const strategy = strategyFor(intent)
    const confidence = Math.min(1, Math.max(0, verdict.data.confidence ?? DEFAULT_LLM_CONFIDENCE))
    const uncertain = confidence < UNCERTAIN_BELOW
    return {
      intent,
      mode: strategy.mode,
      freshness: freshnessFor(intent, normalize(query)),
      weights: strategy.weights,
      confidence,
      uncertain,
      ...(uncertain && { uncertainty: 'model-unsure' as const }),
      signals: rules.signals,
      ...(rules.model && { model: rules.model }),
      source: 'llm',
    }
  } catch (error) {
    return { ...rules, source: 'rules', llmError: isProviderError(error) ? error.kind : 'network' }
  }
}
