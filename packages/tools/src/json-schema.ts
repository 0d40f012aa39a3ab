import { z } from 'zod'

/** A JSON Schema object as the tool formats carry it. */
export type JsonSchemaObject = {
  type: 'object'
  properties: Record<string, Record<string, unknown>>
  required: string[]
  additionalProperties: false
  [key: string]: unknown
}

/** Options of `toolJsonSchema`. */
export interface ToolJsonSchemaOptions {
  /** Rewrite to OpenAI's strict-mode subset: every property required, optional ones nullable, no length/range keywords. */
  strict?: boolean
}

// OpenAI strict mode rejects these (or ignores them unreliably); the executors still enforce them.
const STRICT_DROPPED = new Set([
  '$schema',
  'default',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
])

/**
 * The JSON Schema of a tool's zod input schema (zod 4 `z.toJSONSchema`, input side, draft-07), the one source
 * all three formats and MCP share. With `strict`, the OpenAI strict-mode subset of it.
 */
export function toolJsonSchema(schema: z.ZodType, { strict = false }: ToolJsonSchemaOptions = {}): JsonSchemaObject {
  const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-7', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >
  delete json.$schema
  const object = {
    ...json,
    required: (json.required as string[] | undefined) ?? [],
    additionalProperties: false,
  } as JsonSchemaObject
  return strict ? (toStrict(object) as JsonSchemaObject) : object
}

function toStrict(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toStrict)
  if (node === null || typeof node !== 'object') return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if (STRICT_DROPPED.has(key)) continue
    out[key] = key === 'properties' ? value : toStrict(value)
  }
  if (out.type === 'object' && out.properties && typeof out.properties === 'object') {
    const required = new Set((out.required as string[] | undefined) ?? [])
    const properties: Record<string, unknown> = {}
    for (const [name, prop] of Object.entries(out.properties as Record<string, unknown>)) {
      const strictProp = toStrict(prop) as Record<string, unknown>
      properties[name] = required.has(name) ? strictProp : nullable(strictProp)
    }
    out.properties = properties
    out.required = Object.keys(properties)
    out.additionalProperties = false
  }
  return out
}

// Strict mode has no optional properties: an optional one becomes required-but-nullable, and the executors read null as absent.
function nullable(prop: Record<string, unknown>): Record<string, unknown> {
  const { description, ...rest } = prop
  return { ...(description !== undefined && { description }), anyOf: [rest, { type: 'null' }] }
}

/** Drops `null` values at the top level: strict-mode models send null for an optional argument they leave out. */
export function dropNulls(args: unknown): unknown {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return args
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null))
}
