import { AskInputSchema } from '@search-layer/ask'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { z } from '@hono/zod-openapi'
import { SearchRequestSchema } from '@search-layer/engine'
import { SearchResponseSchema as EngineSearchResponseSchema } from '@search-layer/engine/schemas'
import { ReadablePageSchema as PageFetchReadablePageSchema } from '@search-layer/page-fetch/schemas'
import { afterAll, describe, expect, it } from 'vitest'
import { FetchBodySchema, RefsBodySchema, SearchFormatSchema, SearchQuerySchema, ThreadBodySchema } from '../schemas.js'
import { createApp } from '../app.js'

const wired = createApp({
  env: { HOME: mkdtempSync(join(tmpdir(), 'sl-openapi-')) },
  dataDir: mkdtempSync(join(tmpdir(), 'sl-openapi-data-')),
  logLevel: 'silent',
  webDir: false,
})
afterAll(() => wired.close())

// biome-ignore lint/suspicious/noExplicitAny: the document is JSON read by path
type Json = Record<string, any>
const document = async () => (await (await wired.app.request('/openapi.json')).json()) as Json

/** Routes with no operation in the document, and why. */
const UNDOCUMENTED: Record<string, string> = {
  '/mcp': 'JSON-RPC over Streamable HTTP: its methods are MCP, described in info.description',
  '/openapi.json': 'the document itself',
}

/** "METHOD /path" of every route handler mounted on the app, middleware (`/*`) left out, in OpenAPI path form. */
function mountedOperations(): string[] {
  const operations = wired.app.routes
    .filter((r) => r.method !== 'ALL' || r.path !== '/*')
    .filter((r) => !(r.path in UNDOCUMENTED))
    .map((r) => `${r.method} ${r.path.replace(/:([^/]+)/g, '{$1}')}`)
  return [...new Set(operations)].sort()
}

/** "METHOD /path" of every operation in the document. */
const documentedOperations = (doc: Json) =>
  Object.entries(doc.paths as Json)
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
    .sort()

const resolve = (doc: Json, schema: Json): Json =>
  schema.$ref ? doc.components.schemas[String(schema.$ref).replace('#/components/schemas/', '')] : schema

/** The names of a route's inputs in the document: path and query parameters, then body properties. */
function documentedInputs(doc: Json, operation: string): string[] {
  const [method, path] = operation.split(' ') as [string, string]
  const op = doc.paths[path][method.toLowerCase()]
  const parameters = ((op.parameters ?? []) as { name: string }[]).map((p) => p.name)
  const body = op.requestBody?.content?.['application/json']?.schema
  return [...parameters, ...Object.keys(body ? (resolve(doc, body).properties ?? {}) : {})].sort()
}

const keysOf = (schema: z.ZodObject) => Object.keys(schema.shape).sort()

describe('/openapi.json', () => {
  it('documents every route the app mounts, and nothing else', async () => {
    const doc = await document()
    expect(documentedOperations(doc)).toEqual(mountedOperations())
    // The stream shares POST and GET /v1/search with the JSON routes: it must not hide them.
    expect(documentedOperations(doc)).toEqual(expect.arrayContaining(['GET /v1/search', 'POST /v1/search']))
  })

  // Each input names the schema its packages own: the engine's request for a search body, this package's for the
  // rest. A route validating with a copy that drifted, or documented apart from what it validates, fails here.
  it.each([
    ['POST /v1/search', [...keysOf(SearchFormatSchema), ...keysOf(SearchRequestSchema)].sort()],
    ['GET /v1/search', keysOf(SearchQuerySchema.extend(SearchFormatSchema.shape))],
    ['POST /v1/fetch', keysOf(FetchBodySchema)],
    ['POST /v1/thread', keysOf(ThreadBodySchema)],
    ['POST /v1/refs', keysOf(RefsBodySchema)],
    ['POST /v1/ask', keysOf(AskInputSchema)],
    ['POST /api/tools/{name}', ['name']],
    ['GET /v1/history', ['limit']],
    ['DELETE /v1/history', ['when']],
    ['GET /v1/tool-calls', ['limit']],
    ['GET /v1/conversations', ['limit']],
    ['GET /v1/conversations/{id}', ['id']],
  ])('%s takes exactly the inputs of its schema', async (operation, inputs) => {
    expect(documentedInputs(await document(), operation)).toEqual(inputs)
  })

  it('lists every route with inputs in the table above', async () => {
    const doc = await document()
    const withInputs = documentedOperations(doc).filter((op) => documentedInputs(doc, op).length > 0)
    expect(withInputs).toEqual(
      [
        'DELETE /v1/history',
        'GET /v1/conversations',
        'GET /v1/conversations/{id}',
        'GET /v1/history',
        'GET /v1/search',
        'GET /v1/tool-calls',
        'POST /api/tools/{name}',
        'POST /v1/ask',
        'POST /v1/fetch',
        'POST /v1/refs',
        'POST /v1/search',
        'POST /v1/thread',
      ].sort(),
    )
  })

  it('carries the field constraints of the engine schema, not only the names', async () => {
    const body = (await document()).paths['/v1/search'].post.requestBody.content['application/json'].schema
    const { num, deadlineMs } = SearchRequestSchema.shape
    expect(body.properties.num).toMatchObject({ minimum: num.unwrap().minValue, maximum: num.unwrap().maxValue })
    expect(body.properties.deadlineMs).toMatchObject({
      minimum: deadlineMs.unwrap().minValue,
      maximum: deadlineMs.unwrap().maxValue,
    })
  })

  // Response bodies are the producing packages' own schemas: a field added there is documented with no edit here.
  it.each([
    ['SearchResponse', keysOf(EngineSearchResponseSchema)],
    ['ReadablePage', [...keysOf(PageFetchReadablePageSchema), 'truncated'].sort()],
  ])('documents %s from its package schema, descriptions included', async (name, keys) => {
    const component = (await document()).components.schemas[name]
    expect(Object.keys(component.properties).sort()).toEqual(keys)
    if (name === 'SearchResponse')
      expect(component.properties.keyless_only.description).toBe(
        EngineSearchResponseSchema.shape.keyless_only.unwrap().description,
      )
    else expect(component.properties.degraded.description).toMatch(/plain text/)
  })
})
