import { ToolErrorSchema } from '@search-layer/tools/output-schemas'
import type { z } from 'zod'
import { TruncationSchema } from './_fit-structured.js'

/**
 * The output schema an MCP tool declares, from the zod schema of its data: the data's fields, `error` (an `isError`
 * result's `{kind, message}`) and `truncation` (what `fitStructured` cut). Every top-level field is optional,
 * because that is what can be delivered: a failed call carries only `error`, and a result too large to trim
 * carries only `truncation`. Lists keep at least their first item and long strings end in "…", both within the
 * data schema, so a trimmed result still validates.
 */
export function mcpOutputSchema(data: z.ZodObject): z.ZodObject {
  const error = data.shape.error ?? ToolErrorSchema
  return data.extend({ error: error.optional(), truncation: TruncationSchema.optional() }).partial()
}
