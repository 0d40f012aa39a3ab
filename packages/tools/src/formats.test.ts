import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSearchLayer } from '@search-layer/engine'
import { useEmulator } from '@search-layer/testkit/vitest'
import { beforeAll, describe, expect, it } from 'vitest'
import { anthropicTools } from './anthropic.js'
import type { JsonSchemaObject } from './json-schema.js'
import { openAiTools } from './openai.js'
import { TOOL_NAMES, WebSearchInputSchema } from './schemas.js'

const emu = useEmulator({ resetEachTest: false })
let env: Record<string, string>
let home: string

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'sl-formats-'))
  // Keyless sources and Bocha off: the "live engines" below are the four keyed ones each test configures.
  env = { ...emu.env, HOME: home, SEARCH_LAYER_KEYLESS: 'off', BOCHA_API_KEY: '' }
})

const options = (patch: Record<string, string | undefined> = {}) => {
  const e = { ...env, ...patch }
  return { env: e, layer: createSearchLayer({ env: e, rateLimits: false }) }
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/
// Keywords OpenAI strict mode does not take; the executors enforce them instead.
const STRICT_FORBIDDEN = [
  'default',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'format',
  'pattern',
  '$schema',
]

function walk(node: unknown, visit: (n: Record<string, unknown>, path: string) => void, path = '$') {
  if (Array.isArray(node)) {
    for (const [i, n] of node.entries()) walk(n, visit, `${path}[${i}]`)
  } else if (node && typeof node === 'object') {
    visit(node as Record<string, unknown>, path)
    for (const [k, v] of Object.entries(node)) walk(v, visit, `${path}.${k}`)
  }
}

function expectToolObjectSchema(schema: JsonSchemaObject) {
  expect(schema.type).toBe('object')
  expect(typeof schema.properties).toBe('object')
  expect(Array.isArray(schema.required)).toBe(true)
  for (const r of schema.required) expect(Object.keys(schema.properties)).toContain(r)
  expect(schema.additionalProperties).toBe(false)
  expect(schema).not.toHaveProperty('anyOf')
  expect(schema).not.toHaveProperty('oneOf')
  expect(JSON.parse(JSON.stringify(schema))).toEqual(schema)
}

function expectOpenAiStrict(schema: JsonSchemaObject) {
  expectToolObjectSchema(schema)
  walk(schema, (node, path) => {
    for (const key of STRICT_FORBIDDEN)
      if (key in node && !path.endsWith('.properties')) throw new Error(`${path} has ${key}`)
    if (node.type === 'object') {
      expect(node.additionalProperties, path).toBe(false)
      expect([...(node.required as string[])].sort(), path).toEqual(Object.keys(node.properties as object).sort())
    }
  })
}

describe('OpenAI', () => {
  it('emits Chat Completions and Responses tools in strict mode by default', async () => {
    const { tools, responsesTools } = await openAiTools(options())
    expect(tools.map((t) => t.function.name)).toEqual([...TOOL_NAMES])
    expect(responsesTools.map((t) => t.name)).toEqual([...TOOL_NAMES])
    for (const t of tools) {
      expect(t.type).toBe('function')
      expect(t.function.name).toMatch(NAME)
      expect(t.function.description.length).toBeGreaterThan(40)
      expect(t.function.strict).toBe(true)
      expectOpenAiStrict(t.function.parameters)
    }
    for (const t of responsesTools) {
      expect(Object.keys(t).sort()).toEqual(['description', 'name', 'parameters', 'strict', 'type'])
      expectOpenAiStrict(t.parameters)
    }
    const search = tools[0]!.function.parameters
    expect(search.properties.query).toEqual({
      description: expect.any(String),
      anyOf: [{ type: 'string' }, { type: 'null' }],
    })
    expect(search.properties.max_results).toMatchObject({ anyOf: [{ type: 'integer' }, { type: 'null' }] })
  })

  it('keeps the full schema (ranges, defaults) when strict is off', async () => {
    const { tools } = await openAiTools({ ...options(), strict: false })
    const search = tools[0]!.function
    expect(search.strict).toBe(false)
    expectToolObjectSchema(search.parameters)
    expect(search.parameters.required).toEqual([])
    expect(search.parameters.properties.max_results).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 10,
      default: 5,
    })
    expect(search.parameters.properties.queries).toMatchObject({ type: 'array', minItems: 1, maxItems: 5 })
  })

  it('runs a Chat Completions tool call whose arguments follow the strict schema (nulls for absent fields)', async () => {
    const { tools, runToolCall } = await openAiTools(options())
    const params = tools[0]!.function.parameters
    const args: Record<string, unknown> = Object.fromEntries(Object.keys(params.properties).map((k) => [k, null]))
    args.query = 'rust async runtime'
    const message = await runToolCall({
      id: 'call_1',
      type: 'function',
      function: { name: 'web_search', arguments: JSON.stringify(args) },
    })
    expect(message).toMatchObject({ role: 'tool', tool_call_id: 'call_1' })
    expect(message.result.isError).toBeUndefined()
    expect(message.content).toContain('[1] ')
  })

  it('runs a Responses function_call item', async () => {
    const { runFunctionCall } = await openAiTools(options())
    const item = await runFunctionCall({
      type: 'function_call',
      call_id: 'fc_1',
      name: 'web_fetch',
      arguments: JSON.stringify({ url: `${emu.urls.pages}/article` }),
    })
    expect(item).toMatchObject({ type: 'function_call_output', call_id: 'fc_1' })
    expect(item.output).toMatch(
      /^Fetched page [^\n]*\n[^\n]*\n<<<page-content [0-9a-f]{8}>>>\n# Structured concurrency in async Rust/,
    )
  })

  it.each([
    [
      'an unknown tool',
      'web_browse',
      '{}',
      /Unknown tool "web_browse"; the tools are web_search, web_fetch, fetch_thread, extract_refs/,
    ],
    ['arguments that are not JSON', 'web_search', '{"query": ', /not valid JSON/],
    ['invalid arguments', 'extract_refs', '{"urls": []}', /urls: give at least one URL/],
  ])('answers %s with an error message, not an exception', async (_name, name, args, message) => {
    const { runToolCall } = await openAiTools(options())
    const reply = await runToolCall({ id: 'c', function: { name, arguments: args } })
    expect(reply.result.isError).toBe(true)
    expect(reply.content).toMatch(message)
  })
})

describe('Anthropic', () => {
  it('emits {name, description, input_schema} tools', async () => {
    const { tools } = await anthropicTools(options())
    expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES])
    for (const t of tools) {
      expect(Object.keys(t).sort()).toEqual(['description', 'input_schema', 'name'])
      expect(t.name).toMatch(NAME)
      expectToolObjectSchema(t.input_schema)
    }
    expect(tools[2]!.input_schema).toMatchObject({
      required: ['url'],
      properties: { url: { type: 'string' }, max_comments: { type: 'integer', maximum: 500 } },
    })
  })

  it('runs tool_use blocks into tool_result blocks', async () => {
    const { run } = await anthropicTools(options())
    const ok = await run({
      type: 'tool_use',
      id: 'toolu_1',
      name: 'fetch_thread',
      input: { url: 'https://github.com/octo/demo/issues/2' },
    })
    expect(ok).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1' })
    expect(ok.is_error).toBeUndefined()
    expect(ok.content).toMatch(/^Thread: [^\n]*\n[^\n]*\n<<<page-content [0-9a-f]{8}>>>\n# /)
    const bad = await run({ type: 'tool_use', id: 'toolu_2', name: 'web_search', input: { max_results: 3 } })
    expect(bad).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_2', is_error: true })
    expect(bad.content).toMatch(/give `query` or `queries`/)
  })
})

describe('live providers only', () => {
  it.each([
    [{ TAVILY_API_KEY: undefined, XAI_API_KEY: undefined }, ['brave', 'exa']],
    [{ BRAVE_API_KEY: undefined, EXA_API_KEY: undefined, XAI_API_KEY: undefined }, ['tavily']],
    [{}, ['brave', 'exa', 'tavily', 'grok']],
  ])('with %j the sources enum and description list %j', async (patch, live) => {
    const { tools } = await anthropicTools(options(patch))
    const search = tools[0]!
    expect(search.input_schema.properties.sources).toMatchObject({
      type: 'array',
      items: { type: 'string', enum: live },
    })
    expect(search.description).toContain(`Live engines: ${live.join(', ')}.`)
  })

  it('leaves sources out and says so when no engine is configured', async () => {
    const none = { BRAVE_API_KEY: undefined, EXA_API_KEY: undefined, TAVILY_API_KEY: undefined, XAI_API_KEY: undefined }
    const { tools, run } = await anthropicTools(options(none))
    expect(tools[0]!.input_schema.properties).not.toHaveProperty('sources')
    expect(tools[0]!.description).toMatch(
      /No search engine is configured right now \(set BRAVE_API_KEY, EXA_API_KEY, TAVILY_API_KEY or XAI_API_KEY\)/,
    )
    const res = await run({ id: 'x', name: 'web_search', input: { query: 'rust' } })
    expect(res.is_error).toBe(true)
    expect(res.content).toMatch(/configured|set/i)
  })

  it('an explicit sources list overrides the status check', async () => {
    const { tools } = await openAiTools({ ...options(), sources: ['exa'], strict: false })
    expect(tools[0]!.function.parameters.properties.sources).toMatchObject({ items: { enum: ['exa'] } })
  })

  it('the exported schema validates what the generated JSON Schema describes', () => {
    expect(
      WebSearchInputSchema.safeParse({ queries: ['a', 'b'], intent: 'comparison', sources: ['grok'] }).success,
    ).toBe(true)
    expect(WebSearchInputSchema.safeParse({ query: 'a', max_results: 0 }).success).toBe(false)
  })
})
