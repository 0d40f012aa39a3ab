import { IntentSchema } from '@search-layer/core'
import { z } from 'zod'

/** The verdict the model is asked to reply with. */
export const LlmVerdictSchema = z.object({ intent: IntentSchema, confidence: z.number().optional() })
