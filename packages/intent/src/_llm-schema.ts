import { IntentSchema, RateLimitInfoSchema, SearchResultSchema } from '@search-layer/core'

// NOTE: zod is a dependency of core but not (yet) of this package, and adding it needs a lockfile update.
// Core's exported schemas are zod 4 objects, so the standard zod combinators on them (pick, extend, array,
// nullable) build the two schemas we need without importing zod directly.
const emptyObject = SearchResultSchema.pick({})
const text = SearchResultSchema.shape.title
const optionalNumber = RateLimitInfoSchema.shape.limit

/** The part of an OpenAI-compatible chat completion we read. */
export const ChatCompletionSchema = emptyObject.extend({
  choices: emptyObject
    .extend({ message: emptyObject.extend({ content: text.nullable() }) })
    .array()
    .min(1),
})

/** The verdict the model is asked to reply with. */
export const LlmVerdictSchema = emptyObject.extend({ intent: IntentSchema, confidence: optionalNumber })
