import type { z } from 'zod'
import { InputError } from './errors.js'

type Issue = z.ZodError['issues'][number]

const pathOf = (issue: Issue): string => issue.path.map(String).join('.') || '(root)'

// zod's words for a field that was left out; what a person reads is that it is required, and of what type.
const LEFT_OUT = /^Invalid input: expected (\w+), received undefined$/

/** An issue's message, with a field left out said as such: "required, expected string". */
export function issueMessage(issue: Issue): string {
  const leftOut = issue.code === 'invalid_type' ? LEFT_OUT.exec(issue.message) : null
  return leftOut ? `required, expected ${leftOut[1]}` : issue.message
}

/**
 * The issues a person should read: zod runs a schema's checks even after the value had the wrong type (a string of
 * 17 characters given for a list of at most 10 URLs fails `max(10)` too), so any other issue at a path whose type
 * was wrong is dropped: "expected array" is the whole story.
 */
export function relevantIssues(issues: readonly Issue[]): Issue[] {
  const wrongType = new Set(issues.filter((i) => i.code === 'invalid_type').map(pathOf))
  return issues.filter((i) => i.code === 'invalid_type' || !wrongType.has(pathOf(i)))
}

/** Zod issues as `{path, message}` pairs, the shape every app returns for invalid input. */
export function formatIssues(error: z.ZodError): { path: string; message: string }[] {
  return relevantIssues(error.issues).map((issue) => ({ path: pathOf(issue), message: issueMessage(issue) }))
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
