import type { z } from 'zod'

// Zod 4 builds a fresh copy of every object and array it parses (a looseObject copies each unknown key too): on
// a search that is about a fifth of all allocation and a fifth of a millisecond of CPU, spent re-creating
// provider JSON that is already the right shape. For the plain schemas provider responses use (objects, arrays,
// primitives, optional/nullable, unions, literals, enums), an input that certainly passes is what zod would
// return, value for value; anything else (a failure, a refinement, a default, a transform, a type not
// listed here) goes through zod itself, so errors and outputs stay zod's own.

type Def = {
  type: string
  checks?: readonly unknown[]
  coerce?: boolean
  shape?: Record<string, z.ZodType>
  catchall?: z.ZodType
  innerType?: z.ZodType
  element?: z.ZodType
  options?: readonly z.ZodType[]
  values?: readonly unknown[]
  entries?: Record<string, unknown>
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** True only when zod would accept `value` and return an equal value; false means "ask zod". */
function fits(schema: z.ZodType, value: unknown): boolean {
  const def = defOf(schema)
  switch (def.type) {
    case 'unknown':
    case 'any':
      return true
    case 'string':
      return typeof value === 'string' && !def.coerce && !def.checks?.length
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) && !def.coerce && !def.checks?.length
    case 'boolean':
      return typeof value === 'boolean' && !def.coerce && !def.checks?.length
    case 'null':
      return value === null
    case 'optional':
      return value === undefined || fits(def.innerType!, value)
    case 'nullable':
      return value === null || fits(def.innerType!, value)
    case 'literal':
      return (value === null || typeof value !== 'object') && def.values!.includes(value)
    case 'enum':
      return (typeof value === 'string' || typeof value === 'number') && Object.values(def.entries!).includes(value)
    case 'array': {
      if (!Array.isArray(value) || def.checks?.length) return false
      const element = def.element!
      for (let i = 0; i < value.length; i++) if (!fits(element, value[i])) return false
      return true
    }
    case 'object':
      return fitsObject(def, value)
    case 'union': {
      // Zod returns the first option that passes: an earlier option may pass with a different output (a strip
      // object drops keys), so every option before the fitting one must plainly fail.
      for (const option of def.options!) {
        if (fits(option, value)) return true
        if (!plainlyFails(option, value)) return false
      }
      return false
    }
    default:
      return false
  }
}

function fitsObject(def: Def, value: unknown): boolean {
  // Zod's output is always a plain object; JSON.parse makes nothing else.
  if (!isObject(value) || Object.getPrototypeOf(value) !== Object.prototype || def.checks?.length) return false
  const shape = def.shape!
  for (const key in shape) if (!fits(shape[key]!, value[key])) return false
  const catchall = def.catchall
  const passAll = catchall !== undefined && defOf(catchall).type === 'unknown'
  if (passAll) return true
  // A plain object strips unknown keys and a strict one rejects them: only an input without any is returned as is.
  for (const key in value) {
    if (!Object.hasOwn(shape, key) && (catchall === undefined || !fits(catchall, value[key]))) return false
  }
  return true
}

/** True when zod certainly rejects `value`: the type itself is wrong. */
function plainlyFails(schema: z.ZodType, value: unknown): boolean {
  const def = defOf(schema)
  if (def.coerce) return false
  switch (def.type) {
    case 'string':
      return typeof value !== 'string'
    case 'number':
      return typeof value !== 'number'
    case 'boolean':
      return typeof value !== 'boolean'
    case 'null':
      return value !== null
    case 'object':
      return !isObject(value)
    case 'array':
      return !Array.isArray(value)
    default:
      return false
  }
}

/**
 * `schema.safeParse(value)` for freshly parsed JSON: a value that plainly has the schema's shape is returned as
 * is instead of being copied (same values; keys in the input's order), everything else is zod's own answer.
 * Use it where the input is not shared, e.g. a response body just parsed.
 */
export function safeParseJson<T>(schema: z.ZodType<T>, value: unknown): z.ZodSafeParseResult<T> {
  if (fits(schema, value)) return { success: true, data: value as T }
  return schema.safeParse(value)
}
