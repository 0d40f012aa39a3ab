import { IntentSchema } from '@search-layer/core'
import { z } from 'zod'

/** The part of an OpenAI-compatible chat completion we read. */
export const ChatCompletionSchema = z.object({
  choices: z
    .array(z.object({ message: z.object({ content: z.string().nullable() }) }))
    .min(1),
})

/** The verdict the model is asked to reply with. */
export const LlmVerdictSchema = z.object({ intent: IntentSchema, confidence: z.number().optional() })
