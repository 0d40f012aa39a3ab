import { IntentSchema, lazySchema } from '@search-layer/core'
import { z } from 'zod'

/** The verdict the model is asked to reply with; built with the first model verdict (classifying by rules never does). */
export const llmVerdictSchema = lazySchema(() => z.object({ intent: IntentSchema, confidence: z.number().optional() }))
