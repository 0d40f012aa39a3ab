import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { safeParseJson } from './safe-parse-json.js'

const entry = z.looseObject({
  title: z.string().nullish(),
  url: z.string().nullish(),
  score: z.number().nullish(),
  tags: z.array(z.string()).nullish(),
  profile: z.looseObject({ name: z.string().nullish() }).nullish(),
  kind: z.enum(['web', 'news']).optional(),
  flag: z.literal(true).optional(),
})

const schemas: [string, z.ZodType][] = [
  ['loose object of nullish fields', entry],
  ['strip object', z.object({ a: z.string(), b: z.number().optional() })],
  ['strict object', z.strictObject({ a: z.string().nullable() })],
  ['object with a typed catchall', z.object({ a: z.string() }).catchall(z.number())],
  ['array of entries', z.array(entry)],
  ['envelope with unknown results', z.looseObject({ results: z.array(z.unknown()), next: z.string().nullish() })],
  ['union string | object', z.union([z.string(), z.looseObject({ apiKey: z.string().optional() })])],
  ['union of strip objects', z.union([z.object({ a: z.string() }), z.looseObject({ a: z.string() })])],
  ['checked string', z.string().min(3)],
  ['string with bounds', z.string().min(1).max(5)],
  ['string of one length', z.string().length(3)],
  ['regex string', z.string().regex(/^a/)],
  ['int', z.number().int()],
  ['int within bounds', z.number().int().min(1).max(20)],
  ['positive', z.number().positive()],
  ['nonnegative below 10', z.number().nonnegative().lt(10)],
  ['object of bounded fields', z.looseObject({ title: z.string().min(1), n: z.number().int().positive().nullish() })],
  ['default', z.object({ n: z.number().default(5) })],
  ['transform', z.string().transform((s) => s.length)],
  ['boolean or null', z.boolean().nullable()],
]

// JSON values biased towards the shapes above, so both the fast path and zod's rejections are exercised.
const keys = fc.constantFrom(
  'title',
  'url',
  'score',
  'tags',
  'profile',
  'kind',
  'flag',
  'a',
  'b',
  'n',
  'results',
  'next',
  'apiKey',
  'extra',
)
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom('web', 'news', 'abc'),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(keys, tie('value'), { maxKeys: 6 }),
  ),
})).value

describe('safeParseJson', () => {
  it.each(schemas)('answers as zod does: %s', (_name, schema) => {
    fc.assert(
      fc.property(json, (value) => {
        const fast = safeParseJson(schema, value)
        const slow = schema.safeParse(value)
        expect(fast.success).toBe(slow.success)
        if (fast.success && slow.success) expect(fast.data).toStrictEqual(slow.data)
        else expect(fast.error?.issues).toEqual(slow.error?.issues)
      }),
      { numRuns: 400 },
    )
  })

  it('returns a fitting body as is, without a copy', () => {
    const body = { results: [{ title: 't', url: 'https://a.example', extra: { deep: [1] } }], next: null }
    const parsed = safeParseJson(z.looseObject({ results: z.array(entry), next: z.string().nullish() }), body)
    expect(parsed.success && parsed.data).toBe(body)
  })

  it('returns a body whose strings and numbers meet their bounds as is', () => {
    const body = { title: 'Rust', pageid: 42, extra: { deep: [1] } }
    const schema = z.looseObject({ title: z.string().min(1).max(400), pageid: z.number().int().positive() })
    const parsed = safeParseJson(schema, body)
    expect(parsed.success && parsed.data).toBe(body)
    expect(safeParseJson(schema, { ...body, title: '' }).success).toBe(false)
    expect(safeParseJson(schema, { ...body, pageid: 4.5 }).success).toBe(false)
  })

  it.each([
    ['a wrong type', { title: 5 }, 'title'],
    ['a bad enum value', { kind: 'video' }, 'kind'],
    ['not an object', ['x'], ''],
  ])('leaves %s to zod, with its issues', (_name, value, path) => {
    const parsed = safeParseJson(entry, value)
    expect(parsed.success).toBe(false)
    expect(parsed.error?.issues[0]?.path.join('.')).toBe(path)
  })
})
