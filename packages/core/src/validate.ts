import type { z } from 'zod'
import { InputError } from './errors.js'

/** Zod issues as `{path, message}` pairs, the shape every app returns for invalid input. */
export function formatIssues(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({ path: issue.path.join('.') || '(root)', message: issue.message }))
}

/**
 * Parses caller input with a schema. Throws `InputError` whose message names each bad field and what is allowed.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what = 'input'): z.output<S> {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const issues = formatIssues(parsed.error)
  throw new InputError(`Invalid ${what}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues)
}
