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

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

type Check = (value: unknown) => boolean

const never: Check = () => false
const always: Check = () => true
const checks = new WeakMap<z.ZodType, Check>()

/** The schema's check, built once per schema: true only when zod would accept `value` and return an equal value. */
function checkFor(schema: z.ZodType): Check {
  let check = checks.get(schema)
  if (!check) {
    // A placeholder first: a schema that refers to itself (through a getter) falls back to zod instead of recursing forever.
    checks.set(schema, never)
    check = build(schema)
    checks.set(schema, check)
  }
  return check
}

function build(schema: z.ZodType): Check {
  const def = defOf(schema)
  const plain = !def.coerce && !def.checks?.length
  switch (def.type) {
    case 'unknown':
    case 'any':
      return always
    case 'string': {
      const fits = def.coerce ? undefined : checksFit(def)
      return fits ? (value) => typeof value === 'string' && fits(value) : never
    }
    case 'number': {
      const fits = def.coerce ? undefined : checksFit(def)
      return fits ? (value) => typeof value === 'number' && Number.isFinite(value) && fits(value) : never
    }
    case 'boolean':
      return plain ? (value) => typeof value === 'boolean' : never
    case 'null':
      return (value) => value === null
    case 'optional': {
      const inner = checkFor(def.innerType!)
      return (value) => value === undefined || inner(value)
    }
    case 'nullable': {
      const inner = checkFor(def.innerType!)
      return (value) => value === null || inner(value)
    }
    case 'literal': {
      const values = def.values!
      return (value) => (value === null || typeof value !== 'object') && values.includes(value)
    }
    case 'enum': {
      const values = Object.values(def.entries!)
      return (value) => (typeof value === 'string' || typeof value === 'number') && values.includes(value)
    }
    case 'array': {
      if (!plain) return never
      const element = checkFor(def.element!)
      if (element === always) return (value) => Array.isArray(value)
      return (value) => {
        if (!Array.isArray(value)) return false
        for (let i = 0; i < value.length; i++) if (!element(value[i])) return false
        return true
      }
    }
    case 'object':
      return def.checks?.length ? never : objectCheck(def)
    case 'union': {
      // Zod returns the first option that passes: an earlier option may pass with a different output (a strip
      // object drops keys), so every option before the fitting one must plainly fail.
      const options = def.options!.map((option) => ({ fits: checkFor(option), fails: failsFor(option) }))
      return (value) => {
        for (const option of options) {
          if (option.fits(value)) return true
          if (!option.fails(value)) return false
        }
        return false
      }
    }
    default:
      return never
  }
}

// The checks below bound a string's length or a number's value, each applied to its own type only.
type Bounded = string | number

type CheckDef = {
  check?: string
  minimum?: number
  maximum?: number
  length?: number
  value?: unknown
  inclusive?: boolean
  format?: string
}

/**
 * A string's or number's checks (`.min(1)`, `.max(400)`, `.int()`, `.positive()`…) as one predicate, or undefined
 * when one of them is not a plain bound (a regex, a refinement): zod then decides.
 */
function checksFit(def: Def): ((value: Bounded) => boolean) | undefined {
  const predicates: ((value: Bounded) => boolean)[] = []
  for (const check of def.checks ?? []) {
    const predicate = boundOf((check as { _zod: { def: CheckDef } })._zod.def)
    if (!predicate) return undefined
    predicates.push(predicate)
  }
  if (predicates.length === 0) return () => true
  return (value) => predicates.every((fits) => fits(value))
}

// A check's `when` (zod's own guard on length checks, or one of the schema's) can only make zod skip it: the bound
// applied regardless is as strict or stricter, and a value it turns away goes to zod.
function boundOf(check: CheckDef): ((value: Bounded) => boolean) | undefined {
  const { minimum, maximum, length, value: bound, inclusive } = check
  switch (check.check) {
    case 'min_length':
      return typeof minimum === 'number' ? (value) => (value as string).length >= minimum : undefined
    case 'max_length':
      return typeof maximum === 'number' ? (value) => (value as string).length <= maximum : undefined
    case 'length_equals':
      return typeof length === 'number' ? (value) => (value as string).length === length : undefined
    case 'greater_than':
      if (typeof bound !== 'number') return undefined
      return inclusive ? (value) => (value as number) >= bound : (value) => (value as number) > bound
    case 'less_than':
      if (typeof bound !== 'number') return undefined
      return inclusive ? (value) => (value as number) <= bound : (value) => (value as number) < bound
    case 'number_format':
      return check.format === 'safeint' ? (value) => Number.isSafeInteger(value as number) : undefined
    default:
      return undefined
  }
}

function objectCheck(def: Def): Check {
  const shape = def.shape!
  const keys = Object.keys(shape)
  const fields = keys.map((key) => checkFor(shape[key]!))
  const catchall = def.catchall
  const passAll = catchall !== undefined && defOf(catchall).type === 'unknown'
  const extra = catchall === undefined ? never : checkFor(catchall)
  return (value) => {
    // Zod's output is always a plain object; JSON.parse makes nothing else.
    if (!isObject(value) || Object.getPrototypeOf(value) !== Object.prototype) return false
    for (let i = 0; i < keys.length; i++) if (!fields[i]!(value[keys[i]!])) return false
    if (passAll) return true
    // A plain object strips unknown keys and a strict one rejects them: only an input without any is returned as is.
    for (const key in value) if (!Object.hasOwn(shape, key) && !extra(value[key])) return false
    return true
  }
}

/** True when zod certainly rejects `value`: the type itself is wrong. */
function failsFor(schema: z.ZodType): Check {
  const def = defOf(schema)
  if (def.coerce) return never
  switch (def.type) {
    case 'string':
      return (value) => typeof value !== 'string'
    case 'number':
      return (value) => typeof value !== 'number'
    case 'boolean':
      return (value) => typeof value !== 'boolean'
    case 'null':
      return (value) => value !== null
    case 'object':
      return (value) => !isObject(value)
    case 'array':
      return (value) => !Array.isArray(value)
    default:
      return never
  }
}

/**
 * `schema.safeParse(value)` for freshly parsed JSON: a value that plainly has the schema's shape is returned as
 * is instead of being copied (same values; keys in the input's order), everything else is zod's own answer.
 * Use it where the input is not shared, e.g. a response body just parsed.
 */
export function safeParseJson<T>(schema: z.ZodType<T>, value: unknown): z.ZodSafeParseResult<T> {
  if (checkFor(schema)(value)) return { success: true, data: value as T }
  return schema.safeParse(value)
}
