export { checkAnswer, citedPassages } from './check-answer.js'
export { extractiveAnswer, EXTRACTIVE_LABEL } from './extractive.js'
export { abstention } from './abstention.js'
export { markedAnswer, DEFAULT_MARKS } from './marked-answer.js'
export { CITATION_INSTRUCTIONS } from './instructions.js'
export { answerConfidence } from './confidence.js'
export { freshness, FRESHNESS_WINDOW_DAYS } from './freshness.js'
export {
  ANSWER_LIMITS,
  AbstentionSchema,
  AnswerCountsSchema,
  CheckedAnswerSchema,
  CheckedSentenceSchema,
  CitationReasonSchema,
  CitationSchema,
  ConfidenceInputSchema,
  ConfidenceLevelSchema,
  ConfidenceSchema,
  ExtractiveAnswerSchema,
  ExtractiveOptionsSchema,
  FreshnessInputSchema,
  FreshnessSchema,
  SentenceStatusSchema,
} from './schema.js'
export type {
  Abstention,
  AnswerCounts,
  CheckedAnswer,
  CheckedSentence,
  Citation,
  CitationReason,
  Confidence,
  ConfidenceInput,
  ConfidenceLevel,
  ExtractiveAnswer,
  ExtractiveOptions,
  Freshness,
  FreshnessInput,
  SentenceStatus,
} from './schema.js'
