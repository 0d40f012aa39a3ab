import type { z } from 'zod'
import { ProviderError } from './errors.js'
import { safeParseJson } from './safe-parse-json.js'

/**
 * Validates a vendor's response body against its schema. Throws `ProviderError` (`bad_response`) naming the service
 * and the first three places the body went astray, so every provider words a wrong shape the same way.
 */
export function parseResponseShape<T>(service: string, schema: z.ZodType<T>, body: unknown): T {
  const parsed = safeParseJson(schema, body)
  if (parsed.success) return parsed.data
  const where = parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ')
  throw new ProviderError(`${service} response did not have the expected shape (${where})`, {
    kind: 'bad_response',
    provider: service,
  })
}
